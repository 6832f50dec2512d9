"""`POST /verify`: check a receipt (optionally with its record) or a whole ledger."""

from __future__ import annotations

from flask import jsonify

from adjudicator.api.body import parse_json_body
from adjudicator.api.schemas import VerifyRequest
from adjudicator.services import services
from adjudicator.ledger.verify import verify_answer, verify_ledger, verify_receipt


def verify():
    req = parse_json_body(VerifyRequest)
    keys = services().verification_keys()
    if req.answer is not None:
        report = verify_answer(req.answer, keys)
    elif req.ledger is not None:
        report = verify_ledger(req.ledger, keys, req.receipts)
    else:
        report = verify_receipt(req.receipt, keys, req.record)
    return jsonify(report.to_json())
