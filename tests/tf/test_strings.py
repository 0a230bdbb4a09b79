"""tf.string tensors: TensorFlow's guides ("Introduction to tensors", tf.function) and API docs.

Expected text is what TensorFlow documents: the guides' printed outputs and the examples of the
``tf.strings``, ``tf.io.decode_raw`` and Unicode pages (bytes shown as Python shows them).
"""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

import tapeviz.tf as tf
from tapeviz.sandbox import run


def _out(src: str) -> str:
    r = run("import tensorflow as tf\n" + textwrap.dedent(src))
    assert r.error is None, r.error
    return r.output


# -- guide/tensor: "String tensors" --------------------------------------------------------
def test_scalar_and_vector_of_strings_print_as_tensorflow_prints_them() -> None:
    out = _out(
        """
        scalar_string_tensor = tf.constant("Gray wolf")
        print(scalar_string_tensor)
        tensor_of_strings = tf.constant(["Gray wolf",
                                         "Quick brown fox",
                                         "Lazy dog"])
        print(tensor_of_strings)
        """
    )
    assert out == (
        "tf.Tensor(b'Gray wolf', shape=(), dtype=string)\n"
        "tf.Tensor([b'Gray wolf' b'Quick brown fox' b'Lazy dog'], shape=(3,), dtype=string)\n"
    )


def test_unicode_text_is_utf8_encoded() -> None:
    assert repr(tf.constant("🥳👍")) == (
        "<tf.Tensor: shape=(), dtype=string, numpy=b'\\xf0\\x9f\\xa5\\xb3\\xf0\\x9f\\x91\\x8d'>"
    )
    # The Unicode tutorial's and "Hands-on ML"'s examples.
    assert repr(tf.constant("Thanks 😊")) == (
        "<tf.Tensor: shape=(), dtype=string, numpy=b'Thanks \\xf0\\x9f\\x98\\x8a'>"
    )
    cafe = "<tf.Tensor: shape=(), dtype=string, numpy=b'caf\\xc3\\xa9'>"
    assert repr(tf.constant("café")) == cafe
    t = tf.constant(["You're", "welcome!"])
    assert repr(t) == (
        "<tf.Tensor: shape=(2,), dtype=string, "
        "numpy=array([b\"You're\", b'welcome!'], dtype=object)>"
    )
    assert t.shape == tf.TensorShape([2])
    assert repr(tf.constant(b"hello world")) == (
        "<tf.Tensor: shape=(), dtype=string, numpy=b'hello world'>"
    )


def test_the_guides_split_to_number_and_bytes_cells() -> None:
    out = _out(
        """
        scalar_string_tensor = tf.constant("Gray wolf")
        tensor_of_strings = tf.constant(["Gray wolf", "Quick brown fox", "Lazy dog"])
        print(tf.strings.split(scalar_string_tensor, sep=" "))
        print(tf.strings.split(tensor_of_strings))
        text = tf.constant("1 10 100")
        print(tf.strings.to_number(tf.strings.split(text, " ")))
        byte_strings = tf.strings.bytes_split(tf.constant("Duck"))
        byte_ints = tf.io.decode_raw(tf.constant("Duck"), tf.uint8)
        print("Byte strings:", byte_strings)
        print("Bytes:", byte_ints)
        """
    )
    assert out == (
        "tf.Tensor([b'Gray' b'wolf'], shape=(2,), dtype=string)\n"
        "<tf.RaggedTensor [[b'Gray', b'wolf'], [b'Quick', b'brown', b'fox'], [b'Lazy', b'dog']]>\n"
        "tf.Tensor([  1.  10. 100.], shape=(3,), dtype=float32)\n"
        "Byte strings: tf.Tensor([b'D' b'u' b'c' b'k'], shape=(4,), dtype=string)\n"
        "Bytes: tf.Tensor([ 68 117  99 107], shape=(4,), dtype=uint8)\n"
    )


def test_the_guides_unicode_cell() -> None:
    out = _out(
        """
        unicode_bytes = tf.constant("アヒル 🦆")
        unicode_char_bytes = tf.strings.unicode_split(unicode_bytes, "UTF-8")
        unicode_values = tf.strings.unicode_decode(unicode_bytes, "UTF-8")

        print("\\nUnicode bytes:", unicode_bytes)
        print("\\nUnicode chars:", unicode_char_bytes)
        print("\\nUnicode values:", unicode_values)
        """
    )
    assert out == (
        "\nUnicode bytes: tf.Tensor(b'\\xe3\\x82\\xa2\\xe3\\x83\\x92\\xe3\\x83\\xab \\xf0\\x9f\\xa6"
        "\\x86', shape=(), dtype=string)\n"
        "\nUnicode chars: tf.Tensor([b'\\xe3\\x82\\xa2' b'\\xe3\\x83\\x92' b'\\xe3\\x83\\xab' b' ' "
        "b'\\xf0\\x9f\\xa6\\x86'], shape=(5,), dtype=string)\n"
        "\nUnicode values: tf.Tensor([ 12450  12498  12523     32 129414], shape=(5,), "
        "dtype=int32)\n"
    )


# -- the API docs' examples ------------------------------------------------------------------
def test_split_examples() -> None:
    assert repr(tf.strings.split("hello world").numpy()) == (
        "array([b'hello', b'world'], dtype=object)"
    )
    assert repr(tf.strings.split(["hello world", "a b c"])) == (
        "<tf.RaggedTensor [[b'hello', b'world'], [b'a', b'b', b'c']]>"
    )
    assert tf.strings.split("1<>2<><>3", sep="<>").numpy().tolist() == [b"1", b"2", b"", b"3"]
    assert tf.strings.split("  a  b ").numpy().tolist() == [b"a", b"b"]  # whitespace runs
    assert tf.strings.split("a b c", maxsplit=1).numpy().tolist() == [b"a", b"b c"]


def test_decode_raw_examples() -> None:
    assert repr(tf.io.decode_raw(tf.constant("1"), tf.uint8)) == (
        "<tf.Tensor: shape=(1,), dtype=uint8, numpy=array([49], dtype=uint8)>"
    )
    assert repr(tf.io.decode_raw(tf.constant("1,2"), tf.uint8)) == (
        "<tf.Tensor: shape=(3,), dtype=uint8, numpy=array([49, 44, 50], dtype=uint8)>"
    )
    assert tf.io.decode_raw(tf.constant(["1", "2"]), tf.uint8).shape == tf.TensorShape([2, 1])
    assert tf.io.decode_raw(tf.constant([["1"], ["2"]]), tf.uint8).shape == (2, 1, 1)
    assert tf.io.decode_raw(tf.constant("12345678"), tf.int64).numpy().tolist() == [
        4050765991979987505
    ]
    assert repr(tf.io.decode_raw(tf.constant("\x0a\x0b"), tf.int16)) == (
        "<tf.Tensor: shape=(1,), dtype=int16, numpy=array([2826], dtype=int16)>"
    )
    big = tf.io.decode_raw(tf.constant("\x0a\x0b"), tf.int16, little_endian=False)
    assert big.numpy().tolist() == [2571]
    fixed = tf.io.decode_raw(tf.constant([["1"], ["23"]]), tf.uint8, fixed_length=4)
    assert fixed.shape == (2, 1, 4)
    assert fixed.numpy().tolist() == [[[49, 0, 0, 0]], [[50, 51, 0, 0]]]
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.io.decode_raw(tf.constant(["1", "23"]), tf.uint8)  # lengths differ


def test_unicode_examples() -> None:
    words = [s.encode("utf8") for s in ("G\xf6\xf6dnight", "\U0001f60a")]
    assert tf.strings.unicode_decode(words, "UTF-8").to_list() == [
        [71, 246, 246, 100, 110, 105, 103, 104, 116],
        [128522],
    ]
    assert tf.strings.unicode_split(words, "UTF-8").to_list() == [
        [b"G", b"\xc3\xb6", b"\xc3\xb6", b"d", b"n", b"i", b"g", b"h", b"t"],
        [b"\xf0\x9f\x98\x8a"],
    ]
    text_utf8 = tf.constant("语言处理")
    chars = tf.strings.unicode_decode(text_utf8, input_encoding="UTF-8")
    assert repr(chars) == (
        "<tf.Tensor: shape=(4,), dtype=int32, numpy=array([35821, 35328, 22788, 29702], "
        "dtype=int32)>"
    )
    again = tf.strings.unicode_encode(chars, output_encoding="UTF-8")
    assert repr(again) == (
        "<tf.Tensor: shape=(), dtype=string, "
        "numpy=b'\\xe8\\xaf\\xad\\xe8\\xa8\\x80\\xe5\\xa4\\x84\\xe7\\x90\\x86'>"
    )
    assert int(tf.strings.length(text_utf8)) == 12
    assert int(tf.strings.length(text_utf8, unit="UTF8_CHAR")) == 4


def test_as_string_join_case_and_length() -> None:
    assert repr(tf.strings.as_string([3, 2])) == (
        "<tf.Tensor: shape=(2,), dtype=string, numpy=array([b'3', b'2'], dtype=object)>"
    )
    assert repr(tf.strings.as_string([3.1415926, 2.71828], precision=2).numpy()) == (
        "array([b'3.14', b'2.72'], dtype=object)"
    )
    joined = tf.strings.join([tf.constant(["a", "b"]), "x"], separator="-")
    assert joined.numpy().tolist() == [b"a-x", b"b-x"]
    assert tf.strings.reduce_join(["a", "b", "c"], separator=",").numpy() == b"a,b,c"
    assert tf.strings.upper("text").numpy() == b"TEXT"
    assert tf.strings.lower("TEXT").numpy() == b"text"
    padded = tf.constant("  padded text \n")
    assert tf.strings.strip(padded).numpy() == b"padded text"
    lengths = tf.strings.length(tf.constant(["apple", "banana", "cherry"]))
    assert lengths.dtype is tf.int32 and lengths.numpy().tolist() == [5, 6, 6]
    assert tf.strings.to_number("42", out_type=tf.int32).numpy() == 42
    with pytest.raises(tf.errors.InvalidArgumentError, match="StringToNumberOp"):
        tf.strings.to_number("forty-two")


def test_ragged_string_rows() -> None:
    rows = tf.strings.split(tf.constant(["Gray wolf", "Quick brown fox"]))
    assert rows.shape.as_list() == [2, None] and rows.dtype is tf.string
    assert rows.to_tensor().numpy().tolist() == [
        [b"Gray", b"wolf", b""],
        [b"Quick", b"brown", b"fox"],
    ]
    assert tf.strings.length(rows).to_list() == [[4, 4], [5, 5, 3]]
    assert rows[1].numpy().tolist() == [b"Quick", b"brown", b"fox"]


# -- string tensors as tensors ---------------------------------------------------------------
def test_numpy_gives_bytes_and_object_arrays() -> None:
    s = tf.constant("Gray wolf")
    assert type(s.numpy()) is bytes and s.numpy() == b"Gray wolf"
    v = tf.constant([["a", "b"], ["c", "d"]])
    arr = v.numpy()
    assert arr.dtype == object and arr.shape == (2, 2)
    assert arr.tolist() == [[b"a", b"b"], [b"c", b"d"]]
    assert tf.constant(np.array(["x", "y"])).numpy().tolist() == [b"x", b"y"]
    assert tf.convert_to_tensor(["a"]).dtype is tf.string
    assert tf.constant("a").dtype == tf.string and str(tf.string) == "<dtype: 'string'>"
    assert tf.as_dtype("string") is tf.string and tf.dtypes.string is tf.string


def test_add_joins_and_equal_compares() -> None:
    a = tf.constant("a")
    assert (a + a).numpy() == b"aa" and tf.add(a, "b").numpy() == b"ab"
    t = tf.constant(["x", "y"])
    assert (t + "!").numpy().tolist() == [b"x!", b"y!"]
    assert (t == "y").numpy().tolist() == [False, True]
    assert bool(a == "a") and not bool(a != "a")
    assert tf.reduce_all(tf.equal(t, ["x", "y"]))


def test_shape_size_indexing_and_reshaping() -> None:
    t = tf.constant(["Gray wolf", "Quick brown fox", "Lazy dog"])
    assert t.shape == (3,) and t.ndim == 1 and len(t) == 3
    assert tf.shape(t).numpy().tolist() == [3] and int(tf.size(t)) == 3 and int(tf.rank(t)) == 1
    assert t[1].numpy() == b"Quick brown fox" and [x.numpy() for x in t][2] == b"Lazy dog"
    assert tf.reshape(t, [3, 1]).shape == (3, 1)
    assert tf.concat([t, t], 0).shape == (6,) and tf.stack([t, t]).shape == (2, 3)
    assert tf.gather(t, [2, 0]).numpy().tolist() == [b"Lazy dog", b"Gray wolf"]
    assert tf.fill([2], "z").numpy().tolist() == [b"z", b"z"]
    assert tf.where([True, False], t[:2], "-").numpy().tolist() == [b"Gray wolf", b"-"]
    assert tf.constant("a", shape=[2, 2]).shape == (2, 2)


def test_numeric_ops_raise_tensorflows_errors() -> None:
    a = tf.constant("a")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of string"):
        _ = a * a
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Op:Sum\]"):
        tf.reduce_sum(tf.constant(["a", "b"]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="of string"):
        _ = -a
    with pytest.raises(tf.errors.UnimplementedError, match="Cast string to float is not supported"):
        tf.cast(a, tf.float32)
    with pytest.raises(tf.errors.UnimplementedError, match="Cast int32 to string"):
        tf.cast(tf.constant(1), tf.string)
    with pytest.raises(TypeError, match="Cannot convert 1 to EagerTensor of dtype string"):
        _ = a + 1
    with pytest.raises(TypeError):
        tf.constant("1", dtype=tf.float32)
    with pytest.raises(ValueError, match="non-rectangular"):
        tf.constant([["a"], ["b", "c"]])
    with pytest.raises(TypeError):
        tf.constant(["a", 1])


def test_a_string_tensor_on_a_tape_is_a_constant() -> None:
    x = tf.Variable(3.0)
    with tf.GradientTape(persistent=True) as tape:
        s = tf.constant("a") + tf.constant("b")
        n = tf.strings.to_number(tf.strings.as_string(x))
        y = x * x * tf.cast(s == "ab", tf.float32) + n
    assert float(tape.gradient(y, x)) == 6.0  # to_number's result is a constant
    assert tape.gradient(n, x) is None
    assert all(not r.output.dtype.is_string for r in tape.records)  # no string op recorded


def test_tf_print_quotes_strings_in_tensors() -> None:
    out = _out(
        """
        tf.print(tf.constant("hello"))
        tf.print("words:", tf.constant(["a", "b c"]))
        """
    )
    assert out == 'hello\nwords: ["a" "b c"]\n'


# -- guide/function: strings through tf.function ---------------------------------------------
def test_the_guides_double_cell_traces_once_per_dtype() -> None:
    out = _out(
        """
        @tf.function
        def double(a):
          print("Tracing with", a)
          return a + a

        print(double(tf.constant(1)))
        print()
        print(double(tf.constant(1.1)))
        print()
        print(double(tf.constant("a")))
        print()
        # This doesn't print 'Tracing with ...'
        print(double(tf.constant("b")))
        """
    )
    assert out == (
        'Tracing with Tensor("a:0", shape=(), dtype=int32)\n'
        "tf.Tensor(2, shape=(), dtype=int32)\n\n"
        'Tracing with Tensor("a:0", shape=(), dtype=float32)\n'
        "tf.Tensor(2.2, shape=(), dtype=float32)\n\n"
        'Tracing with Tensor("a:0", shape=(), dtype=string)\n'
        "tf.Tensor(b'aa', shape=(), dtype=string)\n\n"
        "tf.Tensor(b'bb', shape=(), dtype=string)\n"
    )


def test_concrete_functions_of_a_string_signature() -> None:
    out = _out(
        """
        @tf.function
        def double(a):
          print("Tracing with", a)
          return a + a

        double(tf.constant("a"))
        print("Obtaining concrete trace")
        double_strings = double.get_concrete_function(tf.constant("a"))
        print("Executing traced function")
        print(double_strings(tf.constant("a")))
        print(double_strings(a=tf.constant("b")))
        double_strings_from_inputspec = double.get_concrete_function(
            tf.TensorSpec(shape=[], dtype=tf.string))
        print(double_strings_from_inputspec(tf.constant("c")))
        print(double_strings)
        print(double_strings.structured_input_signature)
        try:
          double_strings(tf.constant(1))
        except tf.errors.InvalidArgumentError:
          print("InvalidArgumentError")
        """
    )
    assert out == (
        'Tracing with Tensor("a:0", shape=(), dtype=string)\n'
        "Obtaining concrete trace\n"
        "Executing traced function\n"
        "tf.Tensor(b'aa', shape=(), dtype=string)\n"
        "tf.Tensor(b'bb', shape=(), dtype=string)\n"
        "tf.Tensor(b'cc', shape=(), dtype=string)\n"
        "ConcreteFunction Input Parameters:\n"
        "  a (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(), dtype=tf.string, name=None)\n"
        "Output Type:\n"
        "  TensorSpec(shape=(), dtype=tf.string, name=None)\n"
        "Captures:\n"
        "  None\n"
        "((TensorSpec(shape=(), dtype=tf.string, name='a'),), {})\n"
        "InvalidArgumentError\n"
    )


def test_string_traces_follow_shapes_and_python_text_is_a_value() -> None:
    traces: list[str] = []

    @tf.function
    def shout(a: tf.Tensor) -> tf.Tensor:
        traces.append(str(a))
        return tf.strings.upper(a) + "!"

    assert shout(tf.constant("a")).numpy() == b"A!"
    assert shout(tf.constant("b")).numpy() == b"B!"
    assert shout(tf.constant(["c", "d"])).numpy().tolist() == [b"C!", b"D!"]
    assert shout.experimental_get_tracing_count() == 2
    assert shout("e").numpy() == b"E!" and shout("f").numpy() == b"F!"
    assert shout.experimental_get_tracing_count() == 4  # a Python str is traced by value

    spec = tf.TensorSpec(shape=None, dtype=tf.string)
    assert repr(spec) == "TensorSpec(shape=<unknown>, dtype=tf.string, name=None)"

    @tf.function(input_signature=(spec,))
    def twice(a: tf.Tensor) -> tf.Tensor:
        return a + a

    assert twice("x").numpy() == b"xx"
    assert twice(tf.constant([["p"]])).numpy().tolist() == [[b"pp"]]
    assert twice.experimental_get_tracing_count() == 1
    with pytest.raises(TypeError):
        twice(tf.constant(1.0))


def test_a_trace_for_any_shape_shows_an_unknown_shape() -> None:
    out = _out(
        """
        @tf.function(input_signature=(tf.TensorSpec(shape=None, dtype=tf.string),))
        def twice(a):
          print("Tracing with", a)
          return a + a

        print(twice("x"))
        print(twice(tf.constant([["p"]])))
        """
    )
    assert out == (
        'Tracing with Tensor("a:0", shape=<unknown>, dtype=string)\n'
        "tf.Tensor(b'xx', shape=(), dtype=string)\n"
        "tf.Tensor([[b'pp']], shape=(1, 1), dtype=string)\n"
    )
