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
    value: int | str = Field(
        description="The face rolled; 'hidden:<commitment>' where the fog of war seals the draw from the "
        "viewer until it is revealed (adjudicator.fog).",
    )


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
        description="Only with ?transcript=1: the ruling as tagged chat lines (adjudicator.words.transcript).",
    )
    stand_ins: list[str] | None = Field(
        default=None,
        description="Only with ?transcript=1: the stand-in data the ruling used, one short label each "
        "(the transcript does not repeat them under every ruling).",
    )
    piece_changes: list[dict[str, Any]] | None = Field(
        default=None,
        description="Only with ?transcript=1&changes=1: what the ruling does to the board, one change "
        "per unit: {kind (step, eliminated, replaced, moved, returned), unit, eliminated, step, sp, "
        "applied_by[, dead_pile][, replaced_by, replacements][, hex]} (adjudicator.unit_changes), for a "
        "client that applies the ruling to its board.",
    )
    notices: list[dict[str, Any]] | None = Field(
        default=None,
        description="A recorded ruling's notices: what the game's ledger says of its request (a unit the "
        "ledger eliminated named again, a step it contradicts, the same situation asked again): "
        "{kind, record, text[, unit, hex]}; sealed like any hidden part where the fog of war hides the unit.",
    )
    notice_texts: list[str] | None = Field(
        default=None,
        description="Only with ?transcript=1: the notices in words, as the asking side may read them.",
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


class OwedRuling(BaseModel):
    """A ruling the other side asked that changes pieces only this side can change."""

    seq: int
    side: str | None
    headline: str
    piece_changes: list[dict[str, Any]]


class BoardChangesResponse(BaseModel):
    """The changes the game's rulings order to this side's pieces hidden from the side that asked."""

    game_id: str
    side: str | None
    rulings: list[OwedRuling]


class RulingsResponse(BaseModel):
    """A game's rulings after record `since`, each its check's answer as this token's side may see it."""

    game_id: str
    since: int
    rulings: list[dict[str, Any]] = Field(description="each as its check answered (with ?transcript=1: its chat "
                                                        "lines, the whole ruling, and with &changes=1 its piece_changes)")
    next: int | None = Field(description="the `since` of the next answer; null: none left")


class RollOut(BaseModel):
    seq: int
    check: str
    side: str
    time: str
    purpose: str
    sides: int
    value: int | None = Field(description="null: a sealed die (fog of war) this token may not see yet")


class CheckTallyOut(BaseModel):
    check: str
    side: str
    rulings: int
    dice: int


class DieStatsOut(BaseModel):
    sides: int
    rolls: int
    counts: dict[str, int] = Field(description="face -> how often it came up")
    expected_per_face: float
    chi_square: float
    degrees_of_freedom: int
    p_value: float | None = Field(description="null: too few rolls to test")
    unusual: bool
    verdict: str


class DiceResponse(BaseModel):
    """A game's dice record: every server roll, by check and side, and each die type's faces tested
    against a fair die (Pearson's chi-square)."""

    game_id: str
    summary: str
    rolls: list[RollOut]
    sealed: int
    by_check: list[CheckTallyOut]
    dice: list[DieStatsOut]
    alpha: float
    test: str


class CloseResponse(BaseModel):
    game_id: str
    seed: str
    seed_commitment: str
    record: LedgerRecord


class VerifyRequest(Strict):
    """A receipt (optionally with its record), a recorded answer as a player kept it (its content
    is hashed and compared with the record its receipt signs), or a whole ledger (optionally with
    receipts a player kept)."""

    answer: dict[str, Any] | None = None
    receipt: dict[str, Any] | None = None
    record: dict[str, Any] | None = None
    ledger: dict[str, Any] | None = None
    receipts: list[dict[str, Any]] | None = Field(default=None, max_length=10_000)

    @model_validator(mode="after")
    def _one_subject(self):
        if sum(subject is not None for subject in (self.answer, self.receipt, self.ledger)) != 1:
            raise ValueError("give exactly one of 'answer', 'receipt' or 'ledger'")
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
    compared: list[str] = Field(default_factory=list, description="What was compared with what, in words.")
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
    odds_url: str | None = Field(description="Checks with dice: where to ask their chances before the roll "
                                 "(the request without dice).")
    request_schema: dict[str, Any]


class ScenarioOut(BaseModel):
    id: str
    name: str
    months: dict[str, str] | None = Field(default=None, description=(
        "Game turn -> its month (YYYY-MM), where the scenario's turn record gives one (Fire and Ice): a "
        "check's `month` (board role) is the month of the turn the board's turn track shows."))


class SystemOut(BaseModel):
    id: str
    name: str
    sides: list[str]
    scenarios: list[ScenarioOut]
    checks: list[CheckInfo]


class SystemsResponse(BaseModel):
    systems: list[SystemOut]
    board_roles: dict[str, str] = Field(description="Every board role and what the board fills it with.")


class ServedGameOut(BaseModel):
    id: str
    scenarios: list[str] = Field(description="The game's scenario ids, in their order.")


class ServedDataOut(BaseModel):
    folder: str = Field(description="The data folder read (scenarios/data or SCENARIOS_DATA): its last part "
                        "only, its full path for the maintainer's token (`adjudicator status` on the server's "
                        "machine, which holds its signing key).")
    loaded_at: str = Field(description="When the data served was read (UTC, ISO 8601).")
    read_by: str = Field(description="'gunicorn master' (its workers serve what it read), or 'server process' "
                         "(no master: the app's own process read it).")
    games: list[ServedGameOut]


class ReloadOut(BaseModel):
    at: str = Field(description="When the master read the data again (SIGHUP).")
    taken: bool = Field(description="True: that data is served now. False: it had problems and the data read "
                        "before is still served.")
    problems: list[str] = Field(description="Every problem of the data read, as `file:line: what is wrong`.")
    missing: list[str] = Field(default_factory=list, description="The games the server serves (or its rules "
                               "know) whose data the folder lacked (no `<game>/game.toml`): each is one of the "
                               "problems, and the reason the reload was refused.")


class StatusResponse(BaseModel):
    ok: bool = Field(description="False when the last reload was refused: the data served is not the folder's.")
    summary: str
    data: ServedDataOut | None
    last_reload: ReloadOut | None = Field(description="The last SIGHUP's reading of the data; null before any.")


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


class OddsOutcome(BaseModel):
    """One distinct outcome: its probability, then the outcome fields that tell it apart (the check's own
    names, docs/api.md "Odds")."""

    model_config = ConfigDict(extra="allow")
    probability: float = Field(description="The probability as a number (exact answers: the fraction's value).")
    fraction: str | None = Field(description="The exact probability as 'p/q'; null where it was sampled.")
    interval: list[float] | None = Field(default=None, description="Sampled answers only: a 95 % confidence "
                                         "interval [low, high].")
    label: str = Field(description="The outcome in a few words, for a chart or a chat line ('EX', 'DR').")
    faces: list[int] | None = Field(default=None, description="Checks of a single die: the faces that give it.")
    example_dice: list[int] = Field(description="One combination of dice that gives it (for compute mode).")


class ExpectedLoss(BaseModel):
    side: str
    side_label: str
    expected: float
    fraction: str | None = Field(description="Exact answers: the expected value as 'p/q'.")
    unit: str = Field(description="What a loss counts: 'steps', 'SP', 'regiments', 'spread'.")


class OddsSpace(BaseModel):
    combinations: int = Field(description="Combinations of dice followed through exactly.")
    runs: int = Field(description="Runs of the check it took (exact and sampled).")
    first_roll: dict[str, Any] | None = Field(description="The first roll the check makes (sides, count, purpose) and "
                                              "how many options it was taken in.")
    too_large: list[str] = Field(description="Rolls with too many combinations to list.")


class OddsSampling(BaseModel):
    samples: int
    confidence: float
    strata: int = Field(description="Options of the first roll; each was enumerated or sampled on its own.")
    strata_sampled: int
    unseen_at_most: float = Field(description="At most this much probability (95 %) lies in outcomes no sample met.")


class OddsResponse(BaseModel):
    """The chances of a check before the roll: every distinct outcome with its exact probability (they sum
    to exactly 1), the expected losses per side, and the steps every outcome shares. Nothing is rolled
    or stored."""

    system: str
    check: str
    rule: str
    exact: bool = Field(description="True: every combination of dice was run; false: see `sampling`.")
    method: str = Field(description="How the probabilities were found, in a sentence.")
    outcomes: list[OddsOutcome] = Field(description="Most likely first.")
    expected_losses: list[ExpectedLoss]
    given: dict[str, Any] = Field(description="Outcome fields equal in every outcome: odds, columns, shifts, "
                                  "modifiers.")
    headline: str = Field(description="What every outcome shares, in a few words ('3:1 odds, column 2:1').")
    summary: str = Field(description="The headline and each outcome's chance, in one line.")
    chat_line: str = Field(description="The summary as the chat line a client posts: 'Chances, <game> <check> (before "
                           "the roll): ...' - untagged, since it is not a ruling (docs/api.md 'Transcript').")
    steps: list[StepOut] = Field(description="The steps every outcome takes, each with its rule, once.")
    warnings: list[str]
    space: OddsSpace
    sampling: OddsSampling | None
    game_id: str | None = Field(default=None, description="Game mode: the game whose situation it is.")
    request: dict[str, Any] | None = Field(default=None, description="Game mode: the request as the game bound "
                                           "it (its scenario, the asking side, the ledger's facts).")
