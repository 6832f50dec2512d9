"""The check registry is a leaf: the rules register into it; it never imports them."""

import subprocess
import sys
import textwrap


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
