"""The check registry is a leaf: the rules register into it; it never imports them."""

import subprocess
import sys
import textwrap
import pytest


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=120)


def test_importing_the_registry_imports_no_rules():
    done = _run("""
        import sys
        import adjudicator.checks, adjudicator.rules.positions
        loaded = sorted(m for m in sys.modules if m.startswith("adjudicator.rules."))
        assert loaded == ["adjudicator.rules.positions"], loaded
    """)
    assert done.returncode == 0, done.stderr


def test_reading_an_unfilled_registry_is_an_error_not_an_empty_list():
    done = _run("""
        from adjudicator.checks import RegistryNotFilled, all_checks
        try:
            all_checks()
        except RegistryNotFilled as error:
            print(error)
        else:
            raise SystemExit("no error")
    """)
    assert done.returncode == 0, done.stderr
    assert "register_all_games" in done.stdout


@pytest.mark.slow
def test_the_app_factory_assembles_the_rules(tmp_path):
    done = _run(f"""
        from adjudicator.testing import make_app
        from adjudicator.checks import all_checks
        from adjudicator.rules.positions import supply_tracer
        make_app(__import__("pathlib").Path({str(tmp_path)!r}))
        assert {{spec.system for spec in all_checks()}} == {{"kwb", "spi", "holdfast", "fireandice"}}
        assert all(supply_tracer(s) for s in ("kwb", "spi", "holdfast", "fireandice"))
    """)
    assert done.returncode == 0, done.stderr


def test_board_roles_are_found_in_nested_lists_and_refs():
    from pydantic import BaseModel, ConfigDict

    from adjudicator.checks import CheckRequest, board, board_fields

    class Piece(BaseModel):
        model_config = ConfigDict(extra="forbid")
        unit: str = board("unit")
        hex: str = board("hex", pattern=r"^\d{4}$")
        doubled: bool = False

    class Request(CheckRequest):
        scenario: str = board("scenario", "pusan")
        attackers: list[Piece] = board("attackers", min_length=1)
        target: str | None = board("target_hex", None)
        weather: str = "clear"

    found = dict(board_fields(Request.model_json_schema()))
    assert found == {"/scenario": "scenario", "/attackers": "attackers", "/attackers/-/unit": "unit",
                     "/attackers/-/hex": "hex", "/target": "target_hex"}
    assert Request.model_json_schema()["properties"]["attackers"]["minItems"] == 1


def test_an_unknown_or_misplaced_board_role_is_refused():
    import pytest
    from pydantic import BaseModel, Field

    from adjudicator.checks import CheckRequest, board, either_side, register_check

    with pytest.raises(ValueError, match="unknown board role"):
        board("weather")

    class Item(BaseModel):
        inner: list[str] = board("positions")

    class Misplaced(CheckRequest):
        outer: list[Item] = Field(default_factory=list)

    with pytest.raises(ValueError, match="top-level list role"):
        register_check(system="kwb", name="misplaced_role", request=Misplaced, random=False,
                       summary="", rule="", actor=either_side(rule=""))
