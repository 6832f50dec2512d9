"""The odds as the API answers them (and the pages show them), from what the runs found.

Exact probabilities are fractions: `probability` is the number, `fraction` the same as "p/q", and
the probabilities of an exact answer sum to exactly 1. Where strata were sampled
(`adjudicator.odds.explore`) an outcome's probability is the exact part plus each sampled
stratum's weight times the share of its runs that gave the outcome; `fraction` is then null and
`interval` is a 95 % confidence interval (stratified, the normal approximation with the
Agresti-Coull adjustment per stratum). Outcomes never met in a sample cannot be listed: their
total probability is at most `unseen_at_most` (the rule of three per stratum, 95 %).
"""

from __future__ import annotations

import re
from fractions import Fraction
from math import ceil, floor, sqrt
from typing import Any, Callable

from adjudicator.checks import CheckSpec, side_label
from adjudicator.odds.declare import Chances, without_dice_echo
from adjudicator.odds.explore import Seen, Tally
from adjudicator.words.names import UnitNames
from adjudicator.words.results import percent
from adjudicator.systems import system_info

Z95 = 1.959964
#: Names the answer gives each outcome; an outcome's own fields must not use them.
RESERVED = frozenset({"probability", "fraction", "interval", "label", "faces", "example_dice"})
#: Outcomes named in the one-line summary; the rest are summed as "others".
SUMMARY_OUTCOMES = 6


def fraction_text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def estimate(seen: Seen, tally: Tally) -> Fraction:
    p = seen.exact
    for h, hits in seen.sampled.items():
        stratum = tally.strata[h]
        p += stratum.weight * Fraction(hits, stratum.samples)
    return p


def interval(seen: Seen, tally: Tally, p: Fraction) -> list[float]:
    variance = 0.0
    sampled_weight = 0.0
    for h, stratum in enumerate(tally.strata):
        if not stratum.samples:
            continue
        w = float(stratum.weight)
        sampled_weight += w
        adjusted = (seen.sampled.get(h, 0) + 2) / (stratum.samples + 4)
        variance += w * w * adjusted * (1 - adjusted) / (stratum.samples + 4)
    low = max(float(seen.exact), float(p) - Z95 * sqrt(variance))
    high = min(float(seen.exact) + sampled_weight, float(p) + Z95 * sqrt(variance), 1.0)
    return [floor(low * 1e6) / 1e6, ceil(high * 1e6) / 1e6]  # rounded outwards: the estimate stays inside


def outcome_entry(seen: Seen, tally: Tally, chances: Chances, p: Fraction,
                  words: Callable[[str], str] = str) -> dict[str, Any]:
    clash = RESERVED & set(seen.distinct)
    if clash:
        raise RuntimeError(f"outcome fields {sorted(clash)} clash with the odds' own names")
    entry: dict[str, Any] = {"probability": float(p), "fraction": fraction_text(p) if tally.exact else None}
    if not tally.exact:
        entry["interval"] = interval(seen, tally, p)
    entry["label"] = words(chances.label(seen.distinct))
    if seen.faces:
        entry["faces"] = sorted(seen.faces)
    entry["example_dice"] = seen.dice
    return entry | seen.distinct


def expected_losses(tally: Tally, chances: Chances) -> list[dict[str, Any]]:
    out = []
    for side in tally.loss_sides:
        value = Fraction(tally.expected_losses.get(side, 0))
        for stratum in tally.strata:
            if stratum.samples:
                value += stratum.weight * Fraction(stratum.losses.get(side, 0), stratum.samples)
        out.append({"side": side, "side_label": side_label(side), "expected": float(value),
                    "fraction": fraction_text(value) if tally.exact else None, "unit": chances.loss_unit})
    return out


def method(tally: Tally, words: Callable[[str], str] = str) -> str:
    """How the probabilities were found, in a sentence."""
    if tally.exact:
        n = tally.combinations
        how = " (faces that do the same thing run once for all)" if tally.grouped else ""
        return f"Exact: every way the dice can fall here was counted, in {n} run{'s' if n != 1 else ''} of the check{how}."
    samples = sum(s.samples for s in tally.strata)
    options = [s for s in tally.strata if s.group is None]
    if len(options) == 1:
        why = f" ({tally.first_stage_note})" if tally.first_stage_note else ""
        return (f"Sampled: too many combinations to run them all within the check's budget{why}; {samples} runs "
                "with random dice, each probability with its 95 % confidence interval.")
    exact = sum(1 for s in options if s.exact)
    first = tally.first_call
    roll = f"the first roll ({first.count} d{first.sides}, {words(first.purpose)})" if first else "the first roll"
    together = " together" if any(s.group for s in tally.strata) else ""
    return (f"Partly sampled: {roll} was taken option by option ({len(options)} options, exact); "
            f"{exact} of them were followed through every combination, the other {len(options) - exact} "
            f"were sampled{together} with {samples} runs of random dice (95 % confidence intervals).")


def unseen_at_most(tally: Tally) -> float:
    return float(sum((s.weight * Fraction(3, s.samples) for s in tally.strata if s.samples), start=Fraction(0)))


def summary_line(outcomes: list[dict[str, Any]], headline: str, exact: bool) -> str:
    """One line for a chat: "3:1: EX 17 %, DR 33 %, DE 50 %" (approximate: "≈" and "(sampled)")."""
    shown = outcomes[:SUMMARY_OUTCOMES]
    parts = [f"{o['label']} {percent(o['probability'])}" for o in shown]
    rest = sum(o["probability"] for o in outcomes[SUMMARY_OUTCOMES:])
    if len(outcomes) > SUMMARY_OUTCOMES:
        parts.append(f"{len(outcomes) - SUMMARY_OUTCOMES} others {percent(rest)}")
    line = ("" if exact else "≈ ") + ", ".join(parts)
    return (f"{headline}: {line}" if headline else line) + ("" if exact else " (sampled)")


def chat_line(spec: CheckSpec, summary: str) -> str:
    """The summary as one chat line: "Chances, Korean War Battles combat (before the roll): 3:1 odds, ...".

    Untagged (no "[ADJ ...]", `adjudicator.words.transcript`): it is not a ruling, and a log's check of
    its rulings against the ledger passes it by."""
    info = system_info(spec.system)
    line = f"Chances, {info.name if info else spec.system} {spec.name.replace('_', ' ')} (before the roll): {summary}"
    return re.sub(r"\s+", " ", line)


def build_answer(spec: CheckSpec, chances: Chances, tally: Tally) -> dict[str, Any]:
    """The odds of one request: outcomes, expected losses, the steps every outcome shares; every
    sentence with its units as their counters read (`adjudicator.words.names`), the request's own
    values (`given`, the outcomes' fields) by id for programs."""
    words = UnitNames.of(spec.system).text
    found = [(estimate(seen, tally), seen) for seen in tally.outcomes.values()]
    found.sort(key=lambda item: (-item[0], chances.label(item[1].distinct)))
    outcomes = [outcome_entry(seen, tally, chances, p, words) for p, seen in found]
    given = without_dice_echo(tally.given or {})
    headline = words(chances.headline(given)) if chances.headline else ""
    common = tally.common_steps or set()
    steps = [{"text": words(text), "rule": rule} for text, rule in dict.fromkeys(tally.step_order)
             if (text, rule) in common]
    first = tally.first_call
    options = [s for s in tally.strata if s.group is None]
    summary = summary_line(outcomes, headline, tally.exact)
    return {
        "system": spec.system,
        "check": spec.name,
        "rule": spec.rule,
        "exact": tally.exact,
        "method": method(tally, words),
        "outcomes": outcomes,
        "expected_losses": expected_losses(tally, chances),
        "given": given,
        "headline": headline,
        "summary": summary,
        "chat_line": chat_line(spec, summary),
        "steps": steps,
        "warnings": [words(w) for w in tally.warnings],
        "space": {
            "combinations": tally.combinations,
            "runs": tally.runs,
            "first_roll": ({"sides": first.sides, "count": first.count, "purpose": words(first.purpose),
                            "options": len(options) if options[0].option is not None else None}
                           if first else None),
            "too_large": list(dict.fromkeys(tally.too_large)),
        },
        "sampling": None if tally.exact else {
            "samples": sum(s.samples for s in tally.strata),
            "confidence": 0.95,
            "strata": len(options),
            "strata_sampled": sum(1 for s in options if not s.exact),
            "unseen_at_most": round(unseen_at_most(tally), 6),
        },
    }
