"""What every browser test shares: headless Debian Chromium through its chromedriver
(Selenium WebDriver), a live server on a free 127.0.0.1 port, and screenshots.

Import this module only from browser tests: it skips the importing module when Chromium,
its driver or Selenium is absent (the ``server`` and ``shots`` fixtures are in the
conftest). Paths come from ``$GAMEOPT_CHROMIUM`` and
``$GAMEOPT_CHROMEDRIVER``; screenshots go to ``$GAMEOPT_ARTEFACTS`` (default
``tests/artefacts/``, git-ignored), under ``browser/``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("GAMEOPT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = (os.environ.get("GAMEOPT_CHROMEDRIVER") or shutil.which("chromedriver")
                or "/usr/bin/chromedriver")

if not (os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)):
    pytest.skip(f"needs Debian's chromium and chromium-driver (apt-get install chromium "
                f"chromium-driver): {CHROMIUM} or {CHROMEDRIVER} not found",
                allow_module_level=True)
os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager must not download anything
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium not installed")
from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

__all__ = ["By", "Select", "WebDriverException", "WebDriverWait", "make_driver"]


def make_driver(downloads: Path, size: tuple[int, int] = (1280, 1000)) -> Any:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                f"--user-data-dir={tempfile.mkdtemp(prefix='gameopt-chromium-')}",
                f"--window-size={size[0]},{size[1]}"):
        options.add_argument(arg)
    options.add_experimental_option("prefs", {
        "download.default_directory": str(downloads), "download.prompt_for_download": False})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.implicitly_wait(5)  # elements of a page still loading
    driver.execute_cdp_cmd("Page.setDownloadBehavior",
                           {"behavior": "allow", "downloadPath": str(downloads)})
    return driver
