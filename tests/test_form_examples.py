"""Every check form, submitted exactly as the page first shows it, resolves (issue #18).

The form starts from the check's registered example (`CheckSpec.example`, dice included); a
player who presses Resolve without touching anything must see a ruling, never "a unit is listed
twice" or "hex 0216 is sea". The test reads each form as a browser would (lxml's form values:
inputs, checked boxes, selected options; every value of a repeated name) and posts it back.
"""

from __future__ import annotations

import pytest
from lxml import html
from werkzeug.datastructures import MultiDict

from adjudicator.words import forms
from adjudicator.checks import all_checks
from adjudicator.testing import make_app

CHECKS = [pytest.param(spec.system, spec.name, id=spec.key) for spec in all_checks()]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("form-examples")).test_client()


def test_every_check_has_an_example():
    assert [spec.key for spec in all_checks() if not spec.example] == []


@pytest.mark.slow
@pytest.mark.parametrize("system,check", CHECKS)
def test_the_form_as_shown_resolves(client, system, check):
    page = html.fromstring(client.get(f"/systems/{system}/{check}").get_data(as_text=True))
    form = page.get_element_by_id(f"check-{check}")
    values = MultiDict(list(form.form_values()))
    response = client.post(f"/systems/{system}/{check}", data=values)
    body = html.fromstring(response.get_data(as_text=True))
    problems = [e.text_content() for e in body.xpath(f'//*[@id="errors-{check}"]//li')]
    assert response.status_code == 200, problems
    assert body.xpath(f'//*[@id="result-{check}"]')


@pytest.mark.parametrize("system,check", CHECKS)
def test_the_example_resolves_over_the_api(client, system, check):
    spec = next(s for s in all_checks() if s.key == f"{system}.{check}")
    response = client.post(f"/api/v1/systems/{system}/{check}", json=spec.example)
    assert response.status_code == 200, response.get_json()
    assert len(response.get_json()["dice_used"]) == len(spec.example.get("dice", []))


def _json_boxes(fields, where=()) -> list[str]:
    """Every field, at any depth, that the generator could only offer as a JSON text box."""
    found = []
    for f in fields:
        path = where + (f.name,)
        if f.kind == forms.JSON:
            found.append(".".join(path))
        found += _json_boxes(f.children, path)
    return found


def test_no_check_form_asks_for_json():
    """Issue #15: a player fills every check with inputs, rows and choices, never typed JSON."""
    assert [f"{spec.key}: {box}" for spec in all_checks() for box in _json_boxes(forms.form_fields(spec))] == []


@pytest.mark.parametrize("system,check", CHECKS)
def test_the_check_page_has_no_text_area(client, system, check):
    page = html.fromstring(client.get(f"/systems/{system}/{check}").get_data(as_text=True))
    assert page.get_element_by_id(f"check-{check}").xpath(".//textarea") == []
