"""The replay's board (`adjudicator.logs.replay.board`): a piece moved onto a draw pile's spot joins it.

Piles are looked for among the board's piles only (issue 53: a scan of every stack at every move);
where two lie on one spot, the piece joins the one the board had first, as the engine finds it.
"""

from __future__ import annotations

from adjudicator.logs.replay.board import Board
from vassalfmt.commands import AddPiece, MovePiece, RemovePiece


def deck(name: str) -> str:
    """A deck's type: its name in the DrawPile's field (`_DECK_NAME_FIELD`)."""
    return "deck;" + ";".join([""] * 12 + [name])


def board_with(*piles: tuple[str, str, int, int]) -> Board:
    board = Board()
    for pile_id, name, x, y in piles:
        board.apply(AddPiece(pile_id, deck(name), f"Boxes;{x};{y};false;"))
    for stack in range(30):  # stacks all over the board: no pile among them
        board.apply(AddPiece(f"s{stack}", "stack", f"Boxes;{stack};{stack};"))
    board.apply(AddPiece("u1", "piece;;;u1.png;u1", "Map;10;10;;"))
    return board


def moved_to(board: Board, x: int, y: int) -> str:
    board.apply(MovePiece("u1", "Boxes", x, y, None, "Map", 10, 10, None, ""))
    return board.where("u1").pile


def test_a_piece_moved_onto_a_piles_spot_lies_in_that_pile():
    board = board_with(("d1", "cup", 100, 100), ("d2", "dead pile", 200, 200))
    assert moved_to(board, 200, 200) == "dead pile"
    assert moved_to(board, 100, 100) == "cup"
    assert moved_to(board, 150, 150) == ""  # no pile there
    assert moved_to(board, 5, 5) == ""  # a stack's spot is no pile


def test_two_piles_on_one_spot_the_first_the_board_had():
    board = board_with(("d2", "second", 100, 100), ("d1", "first", 100, 100))
    assert moved_to(board, 100, 100) == "second"
    board.apply(RemovePiece("d2"))
    assert moved_to(board, 100, 100) == "first"


def test_a_pile_that_became_a_stack_is_no_pile():
    board = board_with(("d1", "cup", 100, 100))
    board.apply(AddPiece("d1", "stack", "Boxes;100;100;"))
    assert moved_to(board, 100, 100) == ""
