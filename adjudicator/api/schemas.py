"""Request and response models of the game, ledger and verification endpoints.

Check requests are the rules modules' own schemas (see `adjudicator.checks`); these models
describe everything else, and all of them feed the OpenAPI document.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from adjudicator.checks import SYSTEM_IDS


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


SystemId = Literal[SYSTEM_IDS]  # type: ignore[valid-type]


class StepOut(BaseModel):
    text: str
    rule: str | None


class DieOut(BaseModel):
    sides: int
    purpose: str
    value: int


class CheckResponse(BaseModel):
    """Result of a compute-mode check. Nothing is stored."""

    system: str
    check: str
    rule: str
    outcome: dict[str, Any]
    steps: list[StepOut]
    warnings: list[str]
    dice_used: list[DieOut]
    transcript: list[str] | None = Field(
        default=None,
        description="Only with ?transcript=1: the ruling as tagged chat lines (adjudicator.transcript).",
    )
    stand_ins: list[str] | None = Field(
        default=None,
        description="Only with ?transcript=1: the stand-in data the ruling used, one short label each "
        "(the transcript does not repeat them under every ruling).",
    )
    piece_changes: list[dict[str, Any]] | None = Field(
        default=None,
        description="Only with ?transcript=1&changes=1: each unit the outcome names a new state of: "
        "{unit, eliminated, step, sp[, replaced_by]} (adjudicator.unit_changes), for a client that "
        "applies the ruling to its board.",
    )


class Receipt(BaseModel):
    """Ed25519 signature over canonical JSON of {v, game_id, seq, hash, kid}."""

    model_config = ConfigDict(extra="allow")
    v: int
    game_id: str
    seq: int
    hash: str
    kid: str
    alg: str
    signature: str


class GameCheckResponse(CheckResponse):
    """Result of a game-mode check: the compute-mode fields plus its place in the ledger."""

    game_id: str
    seq: int
    prev_hash: str
    hash: str
    request_id: str | None
    side: str
    time: str
    receipt: Receipt


class CreateGameRequest(Strict):
    system: SystemId = Field(description="Game system id, see GET /api/v1/systems.")
    scenario: str = Field(min_length=1, max_length=64, description="Scenario id of that system.")


class CreateGameResponse(BaseModel):
    game_id: str
    system: str
    scenario: str
    tokens: dict[str, str] = Field(
        description="Bearer tokens, one per side plus 'observer' (read-only). Shown only once."
    )
    seed_commitment: str = Field(description="SHA-256 (hex) of the game's secret seed.")
    genesis: dict[str, Any] = Field(description="Ledger record 0 (the creation), with its receipt.")


class LedgerRecord(BaseModel):
    seq: int
    prev_hash: str
    hash: str
    body: dict[str, Any]
    receipt: Receipt


class GameHeader(BaseModel):
    id: str
    system: str
    scenario: str
    status: Literal["open", "closed"]
    created: str
    closed: str | None
    seed_commitment: str
    seed: str | None
    head_seq: int
    head_hash: str


class LedgerDocument(BaseModel):
    format: str
    game: GameHeader
    records: list[LedgerRecord]


class CloseResponse(BaseModel):
    game_id: str
    seed: str
    seed_commitment: str
    record: LedgerRecord


class VerifyRequest(Strict):
    """Either a receipt (optionally with its record) or a whole ledger (optionally with receipts
    a player kept)."""

    receipt: dict[str, Any] | None = None
    record: dict[str, Any] | None = None
    ledger: dict[str, Any] | None = None
    receipts: list[dict[str, Any]] | None = Field(default=None, max_length=10_000)

    @model_validator(mode="after")
    def _one_subject(self):
        if (self.receipt is None) == (self.ledger is None):
            raise ValueError("give exactly one of 'receipt' or 'ledger'")
        if self.record is not None and self.receipt is None:
            raise ValueError("'record' goes with 'receipt'")
        if self.receipts is not None and self.ledger is None:
            raise ValueError("'receipts' go with 'ledger'")
        return self


class Finding(BaseModel):
    seq: int | None
    code: str
    message: str


class VerifyResponse(BaseModel):
    ok: bool
    records_checked: int
    signatures_checked: int
    dice_recomputed: int
    seed_revealed: bool
    problems: list[Finding]


class ActorOut(BaseModel):
    """Who acts in a check: in a recorded game only that side's token may ask for it."""

    description: str = Field(description="In words, e.g. 'the attacking side (attacking_side)' or 'either side'.")
    rule: str = Field(description="The rule that names who acts.")
    field: str | None = Field(description="The request field naming the acting side, if one does.")


class CheckInfo(BaseModel):
    name: str
    key: str
    summary: str
    rule: str
    random: bool
    scenarios: list[str]
    actor: ActorOut
    board: dict[str, str] = Field(description="JSON pointer -> board role of every field the board fills "
                                  "(the request schema's x-board keywords; docs/api.md 'Fields the board fills').")
    example: dict[str, Any] | None = Field(description="A valid compute-mode request (with dice for a die roll).")
    compute_url: str
    request_schema: dict[str, Any]


class ScenarioOut(BaseModel):
    id: str
    name: str


class SystemOut(BaseModel):
    id: str
    name: str
    sides: list[str]
    scenarios: list[ScenarioOut]
    checks: list[CheckInfo]


class SystemsResponse(BaseModel):
    systems: list[SystemOut]
    board_roles: dict[str, str] = Field(description="Every board role and what the board fills it with.")


class PublicKeyOut(BaseModel):
    kid: str
    alg: str
    public_key: str
    public_key_pem: str
    created: str | None
    retired: str | None


class KeysDocument(BaseModel):
    keys: list[PublicKeyOut]


class ProblemDetails(BaseModel):
    """RFC 9457 problem details."""

    model_config = ConfigDict(extra="allow")
    type: str
    title: str
    status: int
    detail: str | None = None
    instance: str | None = None
    errors: list[dict[str, Any]] | None = None
