"""``gameopt deck``: build on the embedded data, scores and synth files, one-line errors."""

from __future__ import annotations

import pytest

from gameopt.cli.main import main


def test_build_on_embedded_data(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "build", "--cost", "200", "--attribute", "god"]) == 0
    out = capsys.readouterr().out
    assert "score " in out and "cost " in out and "/200" in out and "contribution" in out


def test_method_choices_come_from_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    from gameopt.deck.solve import DECK_METHODS

    with pytest.raises(SystemExit):
        main(["deck", "build", "--cost", "200", "--method", "anneal"])
    err = capsys.readouterr().err
    assert "choose from " + ", ".join(f"'{m}'" for m in DECK_METHODS) in err


@pytest.mark.parametrize("method", ["tabu", "greedy", "hc"])
def test_build_does_not_offer_methods_below_vds(capsys: pytest.CaptureFixture[str],
                                                method: str) -> None:
    """tabu, greedy and hc are behind VDS on the benchmark decks (issue 16)."""
    with pytest.raises(SystemExit) as e:
        main(["deck", "build", "--cost", "200", "--method", method])
    assert e.value.code == 2
    assert f"invalid choice: '{method}'" in capsys.readouterr().err


def test_build_prints_the_clock_of_its_time_limit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "build", "--cost", "200", "--time-limit", "2", "--no-explain",
                 "--method", "vds"]) == 0
    out = capsys.readouterr().out
    assert "vds in " in out and " cpu time" in out


def test_build_explains_binding_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "build", "--cost", "150", "--attribute", "god", "--leader", "1000",
                 "--char-limit", "2", "--method", "vds", "--time-limit", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "(leader)" in out and "vds in" in out
    assert "rule cost cap" in out and "rule attribute minimum" in out
    assert "binds" in out


def test_build_exact_reports_proof_or_gap(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "build", "--cost", "150", "--method", "exact", "--time-limit", "2",
                 "--no-explain"]) == 0
    out = capsys.readouterr().out
    assert "exact in" in out and ("proven optimal" in out or "gap" in out)


def test_build_bnb_proves_the_full_collection(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "build", "--cost", "150", "--method", "bnb", "--time-limit", "30",
                 "--no-explain"]) == 0
    out = capsys.readouterr().out
    assert "bnb in" in out and "s cpu time, proven optimal" in out


def test_synth_scores_then_build_from_files(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["deck", "synth", str(tmp_path), "--seed", "3"]) == 0
    scores = tmp_path / "scores.npz"
    assert main(["deck", "scores", str(tmp_path / "decks.csv"), "--pool",
                 str(tmp_path / "pool.csv"), "-o", str(scores)]) == 0
    assert main(["deck", "build", "--pool", str(tmp_path / "pool.csv"), "--collection",
                 str(tmp_path / "collection.csv"), "--scores", str(scores), "--cost", "220",
                 "--method", "vds"]) == 0
    assert "vds in" in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["deck", "build", "--cost", "10"], "cost 80 > cap 10"),
    (["deck", "build", "--cost", "200", "--must", "x"], "--must 'x'"),
    (["deck", "mdp", "missing.txt"], "no such file"),
    (["deck", "build", "--cost", "200", "--time-limit", "0"], "--time-limit 0.0: expected"),
])
def test_bad_input(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


# ----------------------------------------------------------------- bad input (issues 16, 20)

_GOOD_MDP = "4 2\n0 1 1\n0 2 1\n0 3 1\n1 2 1\n1 3 1\n2 3 1\n"


@pytest.fixture(scope="module")
def synth_dir(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """The synthetic pool, collection and decks, a binary file and a string-valued NPZ."""
    import numpy as np

    from gameopt.deck.formats import read_pool

    d = tmp_path_factory.mktemp("deck")
    assert main(["deck", "synth", str(d)]) == 0
    (d / "binary.csv").write_bytes(bytes(range(256)) * 4)
    ids = read_pool(d / "pool.csv").ids[:2]
    np.savez(d / "strings.npz", ids=np.array(ids), R=np.array([["a", "b"], ["c", "d"]]))
    for name, v in (("huge.npz", 3e38), ("blocked.npz", -1e30), ("nan.npz", np.nan)):
        np.savez(d / name, ids=np.array(ids), R=np.array([[0, v], [v, 0]], np.float32))
    return d


def _one_line_error(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    return err


@pytest.mark.parametrize("files, message", [
    (("nope.csv", "collection.csv", "decks.csv"), "pool {d}/nope.csv: no such file"),
    (("pool.csv", "nope.csv", "decks.csv"), "collection {d}/nope.csv: no such file"),
    (("binary.csv", "collection.csv", "decks.csv"), "pool {d}/binary.csv: not utf-8 text"),
    (("pool.csv", "collection.csv", "strings.npz"),
     "{d}/strings.npz: R: holds <U1 values, not numbers"),
    # "score inf" with exit 0 / the greedy deck, before (issue 16)
    (("pool.csv", "collection.csv", "huge.npz"), "row 0, column 1 is 3e+38; scores must be"),
    (("pool.csv", "collection.csv", "blocked.npz"), "row 0, column 1 is -1e+30; scores must"),
    (("pool.csv", "collection.csv", "nan.npz"), "row 0, column 1 is nan; scores must be"),
])
def test_build_refuses_bad_files(files: tuple[str, str, str], message: str, synth_dir,  # type: ignore[no-untyped-def]
                                 capsys: pytest.CaptureFixture[str]) -> None:
    pool, collection, scores = (str(synth_dir / f) for f in files)
    err = _one_line_error(["deck", "build", "--cost", "200", "--pool", pool, "--collection",
                           collection, "--scores", scores], capsys)
    assert message.format(d=synth_dir) in err


@pytest.mark.parametrize("cost, message", [
    ("1e20", "--cost 1e+20: expected >= 0 and <= 2147483647"),
    ("100000000000000000000", "--cost 100000000000000000000: expected >= 0"),
    ("-5", "--cost -5: expected >= 0"),
    ("2.5", "--cost 2.5: expected a whole number"),
])
def test_build_refuses_bad_cost_caps(cost: str, message: str,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    err = _one_line_error(["deck", "build", "--cost", cost], capsys)
    assert message in err and "must-include" not in err


def test_build_exact_refuses_a_zero_time_limit(capsys: pytest.CaptureFixture[str]) -> None:
    err = _one_line_error(["deck", "build", "--cost", "200", "--method", "exact",
                           "--time-limit", "0"], capsys)
    assert "--time-limit 0.0: expected seconds > 0" in err


@pytest.mark.parametrize("name, message", [
    ("nope.csv", "decks {d}/nope.csv: no such file"),
    ("binary.csv", "decks {d}/binary.csv: not utf-8 text"),
])
def test_scores_refuses_bad_deck_files(name: str, message: str, synth_dir, tmp_path,  # type: ignore[no-untyped-def]
                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "scores.npz"
    err = _one_line_error(["deck", "scores", str(synth_dir / name), "-o", str(out)], capsys)
    assert message.format(d=synth_dir) in err and not out.exists()


def _gz(text: str) -> bytes:
    import gzip

    return gzip.compress(text.encode(), mtime=0)  # the same bytes (and test id) every run


@pytest.mark.parametrize("name, content, message", [
    ("abc.txt", "abc\n0 1 1\n", ":1: header 'abc' is not 'n m'"),
    ("frac.txt", "5.5 2\n0 1 1\n", ":1: header '5.5 2' is not 'n m'"),
    ("long.txt", "20 5" + "9" * 9980 + "\n0 1 1\n",  # the long fuzz run: int() refused it
     ":1: header '20 5999999999999999999999999999999999999' is not 'n m'"),
    ("trunc.txt.gz", _gz(_GOOD_MDP)[:30], "trunc.txt.gz: not gzip"),
    ("fake.txt.gz", _GOOD_MDP, "fake.txt.gz: not gzip"),
    ("binary.txt", bytes(range(256)), "binary.txt: not utf-8 text"),
    ("huge.txt", "100000 5\n0 1 3\n",
     "header declares n = 100000 (4999950000 pair lines) but the file holds at most 2"),
    ("missing.txt", "4 2\n0 1 1\n0 2 1\n", "n = 4 (6 pair lines) but the file holds at most 3"),
    ("gap.txt", "4 2\n0 1 1\n0 2 1\n\n\n\n\n", "2 pair lines, header n = 4 needs 6"),
    ("twice.txt", "4 2\n0 1 1\n0 2 1\n0 3 1\n1 2 1\n1 0 1\n2 3 1\n",
     "twice.txt:6: pair (1 0) given twice (so another pair is missing)"),
    ("fracidx.txt", "4 2\n0 1 1\n0 2 1\n0 3 1\n1 2 1\n1 3 1\n2 3.5 1\n",
     "fracidx.txt:7: index 2 3.5 is not a whole number"),
    ("diag.txt", "4 2\n0 1 1\n0 2 1\n0 3 1\n1 2 1\n1 3 1\n2 2 5\n",
     "diag.txt:7: diagonal entry (2 2)"),
    ("outside.txt", "4 2\n0 1 1\n0 2 1\n0 3 1\n1 2 1\n1 3 1\n2 4 1\n",
     "outside.txt:7: index outside 0..3 (2 4)"),
    ("nan.txt", "4 2\n0 1 1\n0 2 nan\n0 3 1\n1 2 1\n1 3 1\n2 3 1\n",
     "nan.txt:3: d = nan: scores must be finite"),
    ("big.txt", "4 2\n0 1 1\n0 2 1e30\n0 3 1\n1 2 1\n1 3 1\n2 3 1\n",
     "big.txt:3: d = 1e+30: scores must be finite and below 1e+15"),
    ("fields.txt", "4 2\n0 1\n0 2\n0 3\n1 2\n1 3\n2 3\n", "pair lines need 3 fields"),
    ("m.txt", "4 5\n" + _GOOD_MDP[4:], "header 'n m' = 4 5: need n >= 2 and 1 <= m <= n"),
    ("header_only.txt", "4 2\n", "header declares n = 4 (6 pair lines)"),
])
def test_mdp_refuses_bad_files(name: str, content: str | bytes, message: str, tmp_path,  # type: ignore[no-untyped-def]
                               capsys: pytest.CaptureFixture[str]) -> None:
    import warnings

    f = tmp_path / name
    if isinstance(content, bytes):
        f.write_bytes(content)
    else:
        f.write_text(content)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a header-only file printed numpy's UserWarning
        err = _one_line_error(["deck", "mdp", str(f), "-q"], capsys)
    assert message in err


def test_mdp_refuses_a_directory(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    err = _one_line_error(["deck", "mdp", str(tmp_path)], capsys)
    assert "is a directory" in err


@pytest.mark.parametrize("option, message", [
    (["--time-limit", "nan"], "--time-limit nan: expected a number of seconds > 0"),
    (["--time-limit", "-1"], "--time-limit -1.0: expected seconds > 0"),
    (["--time-limit", "0"], "--time-limit 0.0: expected seconds > 0"),
    (["--target", "nan"], "--target nan: expected a finite number"),
    (["--target", "inf"], "--target inf: expected a finite number"),
])
def test_mdp_refuses_bad_numbers(option: list[str], message: str, tmp_path,  # type: ignore[no-untyped-def]
                                 capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "good.txt"
    f.write_text(_GOOD_MDP)
    assert message in _one_line_error(["deck", "mdp", str(f), *option], capsys)


def test_mdp_reads_a_good_file_and_its_gzip(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "good.txt").write_text("4 2\n0 1 1\n0 2 5\n\n0 3 1\n1 2 1\n1 3 1\n2 3 1\n")
    (tmp_path / "good.txt.gz").write_bytes(_gz(_GOOD_MDP.replace("0 2 1", "0 2 5")))
    for name in ("good.txt", "good.txt.gz"):
        assert main(["deck", "mdp", str(tmp_path / name), "--time-limit", "0.2", "-q"]) == 0
        out = capsys.readouterr().out
        assert "value 5.000000" in out and "subset: 0 2" in out


def test_build_forbid_keeps_a_pair_apart(capsys: pytest.CaptureFixture[str]) -> None:
    def deck(*extra: str) -> list[int]:
        assert main(["deck", "build", "--cost", "200", "--no-explain", "-q", *extra]) == 0
        out = capsys.readouterr().out
        return [int(line.split("|")[1]) for line in out.splitlines()
                if line.startswith("|") and line.split("|")[1].strip().isdigit()]

    first = deck()
    a, b = first[:2]
    second = deck("--forbid", f"{a},{b}")
    assert len(second) == 16 and not {a, b} <= set(second)
    assert "--forbid '1'" in _one_line_error(["deck", "build", "--cost", "200", "--forbid",
                                              "1"], capsys)
