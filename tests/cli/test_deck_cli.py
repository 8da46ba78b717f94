"""``gameopt deck``: build on the embedded data, scores and synth files, one-line errors."""

from __future__ import annotations

import pytest

from gameopt.cli.main import main


def test_build_on_embedded_data(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "build", "--cost", "200", "--attribute", "god"]) == 0
    out = capsys.readouterr().out
    assert "score " in out and "cost " in out and "/200" in out and "contribution" in out


def test_method_choices_come_from_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    from gameopt.deck import METHODS

    with pytest.raises(SystemExit):
        main(["deck", "build", "--cost", "200", "--method", "anneal"])
    err = capsys.readouterr().err
    assert "choose from " + ", ".join(f"'{m}'" for m in METHODS) in err


def test_build_prints_the_clock_of_its_time_limit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "build", "--cost", "200", "--time-limit", "2", "--no-explain",
                 "--method", "hc"]) == 0
    out = capsys.readouterr().out
    assert "hc in " in out and " cpu time" in out


def test_build_explains_binding_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "build", "--cost", "150", "--attribute", "god", "--leader", "1000",
                 "--char-limit", "2", "--method", "tabu", "--time-limit", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "(leader)" in out and "tabu in" in out
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
                 "--method", "hc"]) == 0
    assert "hc in" in capsys.readouterr().out


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
