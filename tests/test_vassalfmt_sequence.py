"""VASSAL's sequence encoding (vassalfmt.sequence) and key strokes (vassalfmt.keys)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vassalfmt.errors import VassalFormatError
from vassalfmt.keys import ALT, CTRL, SHIFT, KeyStroke, decode_key_list, encode_key_list, key, named
from vassalfmt.sequence import (
    ESC,
    SequenceDecoder,
    SequenceEncoder,
    decode,
    encode,
    java_double,
    parse_string_array,
    string_array,
)

DELIMITERS = [";", ",", "\t", "/", ESC, "|", ":", "="]

# Text rich in the characters that matter: every delimiter, backslashes and quotes.
tricky_text = st.text(alphabet=st.sampled_from(list("ab;,\t/|:=\\'") + [ESC]), max_size=12)
any_text = st.one_of(tricky_text, st.text(max_size=20))


# --- exact engine behaviour ---------------------------------------------------------------------

@pytest.mark.parametrize("fields, delim, expected", [
    (["A", "B,C"], ",", "A,B\\,C"),                 # the engine's own javadoc example
    (["a", "", "b"], ";", "a;;b"),                  # empty field = nothing between delimiters
    (["", ""], ";", ";"),
    (["\\x"], ";", "'\\x'"),                        # starts with a backslash: quote-wrapped
    (["'q'"], ";", "''q''"),                        # starts and ends with a quote: wrapped
    (["'"], ";", "'''"),
    (["'a"], ";", "'a"),                            # only starts with a quote: unchanged
    (["a'"], ";", "a'"),
    (["1;2", "x"], ";", "1\\;2;x"),
    (["a\\;b"], ";", "a\\\\;b"),                     # existing backslash kept, one added
])
def test_encode_matches_engine(fields, delim, expected):
    assert encode(fields, delim) == expected
    assert decode(expected, delim) == fields


def test_trailing_backslash_is_protected():
    # The engine would write "a\;b", which its decoder reads as ONE field "a;b".
    assert decode("a\\;b", ";") == ["a;b"]
    # We wrap the field instead, which the engine's decoder reads back correctly.
    assert encode(["a\\", "b"], ";") == "'a\\';b"
    assert decode("'a\\';b", ";") == ["a\\", "b"]
    # As the last field nothing follows, so the engine's form is kept.
    assert encode(["b", "a\\"], ";") == "b;a\\"


def test_decode_edge_cases():
    assert decode("", ";") == [""]
    assert decode(None, ";") == []
    assert decode("a;", ";") == ["a", ""]
    assert decode(";a", ";") == ["", "a"]
    assert decode("'x'", ";") == ["x"]           # one pair of quotes stripped
    assert decode("''x''", ";") == ["'x'"]


def test_nested_encoding_stacks_backslashes():
    inner = encode(["x;y", "z"], ";")                 # x\;y;z
    middle = encode([inner, "w"], ";")                # x\\;y\;z;w
    assert middle == "x\\\\;y\\;z;w"
    a, b = decode(middle, ";")
    assert b == "w" and decode(a, ";") == ["x;y", "z"]


def test_decoder_defaults_follow_the_engine():
    d = SequenceDecoder("12;junk;true;;x", ";")
    assert d.next_int(5) == 12
    assert d.next_int(5) == 5            # not a number: default
    assert d.next_bool(False) is True
    assert d.next_char("c") == "c"       # empty field: default char
    assert d.next_token() == "x"
    assert not d.has_more()
    assert d.next_int(7) == 7 and d.next_token("dflt") == "dflt"
    with pytest.raises(VassalFormatError):
        d.next_token()


def test_decoder_int_range_is_java_int():
    assert SequenceDecoder("2147483648", ";").next_int(-1) == -1
    assert SequenceDecoder("-2147483648", ";").next_int(0) == -2147483648
    assert SequenceDecoder("+7", ";").next_int(0) == 7
    assert SequenceDecoder("١٢", ";").next_int(3) == 3        # non-ASCII digits are not Java ints


def test_remaining():
    d = SequenceDecoder("a;b;c", ";")
    d.next_token()
    assert d.remaining() == "b;c"


def test_sequence_encoder_formats_like_java():
    se = SequenceEncoder(";").add("Flip").add_int(130).add_bool(True).add_double(1.0).add(None)
    assert se.value() == "Flip;130;true;1.0;"
    assert SequenceEncoder(";").add_list(["a", "b,c"]).value() == "a,b\\,c"


@pytest.mark.parametrize("value, text", [
    (1.0, "1.0"), (0.5, "0.5"), (100.0, "100.0"), (-3.25, "-3.25"), (0.001, "0.001"),
    (1e-4, "1.0E-4"), (1e7, "1.0E7"), (12345678.9, "1.23456789E7"), (1234567.0, "1234567.0"),
    (0.0, "0.0"), (2.5e-10, "2.5E-10"),
])
def test_java_double(value, text):
    assert java_double(value) == text


def test_string_array():
    assert string_array([]) == ""
    assert parse_string_array("") == []
    assert string_array(["a.png", "b.png"]) == "a.png,b.png"
    assert parse_string_array(",x") == ["", "x"]


def test_bad_delimiters_refused():
    with pytest.raises(ValueError):
        encode(["a"], "\\")
    with pytest.raises(ValueError):
        encode(["a"], ";;")


# --- properties -----------------------------------------------------------------------------------

@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(fields=st.lists(any_text, min_size=1, max_size=8), delim=st.sampled_from(DELIMITERS))
def test_any_list_round_trips(fields, delim):
    assert decode(encode(fields, delim), delim) == fields


@settings(max_examples=200, deadline=None)
@given(outer=st.lists(st.lists(any_text, min_size=1, max_size=4), min_size=1, max_size=4),
       delims=st.permutations([";", ",", "\t"]))
def test_nested_lists_round_trip(outer, delims):
    inner_delim, outer_delim, top_delim = delims
    encoded_inner = [encode(f, inner_delim) for f in outer]
    middle = encode(encoded_inner, outer_delim)
    top = encode([middle, "tail"], top_delim)
    got_middle, tail = decode(top, top_delim)
    assert tail == "tail"
    assert [decode(x, inner_delim) for x in decode(got_middle, outer_delim)] == outer


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=40), delim=st.sampled_from(DELIMITERS))
def test_decoding_arbitrary_text_never_fails(text, delim):
    fields = decode(text, delim)
    assert len(fields) >= 1
    # Anything decoded encodes to something that decodes to the same fields again.
    assert decode(encode(fields, delim), delim) == fields


# --- key strokes -----------------------------------------------------------------------------------

def test_key_strokes():
    assert key("Ctrl+D").encode() == "68,130"
    assert key("Alt+W").encode() == "87,520"
    assert key("Shift+F1").encode() == "112,65"
    assert key("Ctrl+Shift+R").encode() == f"82,{CTRL + SHIFT}"
    assert key("DELETE").encode() == "127,0"
    assert key("Ctrl+F", name="Flip").encode() == "70,130,Flip"
    assert named("Flip").encode() == "0,0,Flip"
    assert ALT == 520


def test_key_decoding():
    assert KeyStroke.decode("") is None
    assert KeyStroke.decode("68,130") == KeyStroke(68, 130)
    assert KeyStroke.decode("57344,0,Flip") == KeyStroke(57344, 0, "Flip")
    assert KeyStroke.decode("x,y") is None                 # unreadable: no key, like the engine
    assert KeyStroke.decode("D") == KeyStroke(68, 128)     # legacy single character = Ctrl+char


def test_key_errors():
    for bad in ("Hyper+D", "Ctrl+", "Ctrl+NOSUCHKEY"):
        with pytest.raises(ValueError):
            key(bad)
    with pytest.raises(ValueError):
        named("a,b")


def test_key_lists():
    keys = [named("Flip"), key("Ctrl+D")]
    text = encode_key_list(keys)
    assert text == "0\\,0\\,Flip,68\\,130"
    assert decode_key_list(text) == keys
    assert decode_key_list("") == []
    assert decode_key_list("junk,68\\,130") == [key("Ctrl+D")]


def test_docstring_examples():
    import doctest

    import vassalfmt.keys
    import vassalfmt.piece
    import vassalfmt.savedgame
    import vassalfmt.sequence

    for module in (vassalfmt.sequence, vassalfmt.keys, vassalfmt.piece, vassalfmt.savedgame):
        result = doctest.testmod(module)
        assert result.failed == 0, module.__name__
        assert result.attempted > 0, module.__name__
