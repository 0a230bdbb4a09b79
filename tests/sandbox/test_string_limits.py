"""Every way a script builds a string counts against the run's size limit, before C builds it.

A template that names one value many times (``('{0}' * 1000).format(s)``, ``'%(a)s' * n % d``,
an f-string with many fields) makes a string far bigger than its arguments, so checking the
arguments once let 20-100 M characters through. The results here would be 10-50x the limit;
with ``SMALL`` limits they are refused without allocating much.
"""

from __future__ import annotations

import resource

import pytest

from tapeviz.sandbox import Limits, run
from tests.sandbox.test_limits import assert_limit

SMALL = Limits(max_elements=10_000)

# (id, source): each builds 10x-100x the SMALL size limit from arguments within it
BUILDERS: list[tuple[str, str]] = [
    ("format_positional", "s = ('{0}' * 1000).format('a' * 1000)"),
    ("format_keyword", "s = ('{a}' * 1000).format(a='a' * 1000)"),
    ("format_auto", "s = ('{}' * 1000).format(*(['a' * 1000] * 1000))"),
    ("format_conversion", "s = ('{0!r}' * 1000).format('a' * 1000)"),
    ("format_widths", "s = ('{0:9999}' * 50).format(1)"),
    ("format_precisions", "s = ('{0:.9999f}' * 50).format(1.5)"),
    ("format_list_value", "s = ('{0}' * 1000).format(['a'] * 500)"),
    ("fstring_fields", "a = 'a' * 1000\ns = f'" + "{a}" * 100 + "'"),
    ("fstring_nested", "a = 'a' * 2000\nb = f'{a}{a}{a}{a}'\ns = f'{b}{b}{b}{b}'"),
    ("fstring_conversion", "a = 'a' * 1000\ns = f'" + "{a!r}" * 100 + "'"),
    ("fstring_spec", "a = 1\ns = f'" + "{a:>9999}" * 50 + "'"),
    ("percent_named", "s = ('%(a)s' * 1000) % {'a': 'a' * 1000}"),
    ("percent_named_repr", "s = ('%(a)r' * 1000) % {'a': 'a' * 1000}"),
    ("percent_widths", "s = ('%9999d' * 50) % tuple([1] * 50)"),
    ("percent_precisions", "s = ('%.9999f' * 50) % tuple([1.5] * 50)"),
    ("percent_tuple", "s = ('%s' * 1000) % tuple(['a' * 1000] * 1000)"),
    ("bytes_percent_named", "s = (b'%(a)s' * 1000) % {b'a': b'a' * 1000}"),
    ("upper_expands", "s = ('\ufb03' * 5000).upper()"),
    ("swapcase_expands", "s = ('\ufb03' * 5000).swapcase()"),
    ("replace", "s = ('a' * 1000).replace('a', 'b' * 1000)"),
    ("join", "s = ('a' * 1000).join(['x'] * 1000)"),
    ("repeat", "s = 'a' * 1000 * 1000"),
    ("concat_loop", "s = 'a'\nfor i in range(30):\n    s = s + s"),
    ("str_of_list", "s = str(['a' * 1000] * 1000)"),
]


@pytest.mark.parametrize(("source"), [b[1] for b in BUILDERS], ids=[b[0] for b in BUILDERS])
def test_string_builders_hit_the_size_limit(source: str) -> None:
    assert_limit(run(source, limits=SMALL), "size")


@pytest.mark.parametrize(
    "source",
    [
        "s = ('{0}' * 1000).format('a' * 10**5)",
        "s = ('{a}' * 1000).format(a='a' * 10**5)",
        "a = 'a' * 10**5\ns = f'" + "{a}" * 200 + "'",
        "s = ('%(a)s' * 1000) % {'a': 'a' * 10**5}",
        "s = ('{0:9999}' * 5000).format(1)",
    ],
    ids=["format_positional", "format_keyword", "fstring", "percent_named", "format_widths"],
)
def test_the_issue_payloads_are_refused_before_they_are_built(source: str) -> None:
    """The reported 20-100 M character strings stop at the 10 M limit, without the memory."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    err = assert_limit(run(source), "size")
    assert "characters" in err.message
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 60  # the 100 M character result would need 100+ MB


def _out(source: str, limits: Limits | None = None) -> str:
    result = run(source, limits=limits)
    assert result.error is None, result.error
    return "".join(result.output)


def test_str_format_keeps_pythons_results() -> None:
    """The checked ``str.format`` formats as Python does: numbering, conversions, specs, escapes."""
    cases = [
        ("'{} {}'.format(1, 2)", "1 2"),
        ("'{1}{0}{1}'.format('a', 'b')", "bab"),
        ("'{x}-{y}'.format(x=1, y=2.5)", "1-2.5"),
        ("'{0!r} {0!s} {0!a}'.format('é')", "'é' é '\\xe9'"),
        ("'{:>6.2f}|{:<4}|{:^5}'.format(3.14159, 'ab', 'c')", "  3.14|ab  |  c  "),
        ("'{:,}'.format(1234567)", "1,234,567"),
        ("'{{}} {{{0}}}'.format(7)", "{} {7}"),
        ("'{0:{1}}'.format(1, 2) if False else '{:08.3f}'.format(-1.5)", "-001.500"),
        ("'{}'.format([1, 'a'])", "[1, 'a']"),
        ("'{a}{a}'.format(**{'a': 'z'})", "zz"),
        ("'{0}'.format(True)", "True"),
        ("'{:d}'.format(True)", "1"),
        ("'{:%}'.format(0.25)", "25.000000%"),
    ]
    source = "\n".join(f"print(repr({expr}))" for expr, _ in cases)
    got = _out(source).splitlines()
    assert got == [repr(want) for _, want in cases]


@pytest.mark.parametrize(
    ("expr", "error"),
    [
        ("'{0}{}'.format(1, 2)", "cannot switch from manual field specification"),
        ("'{}{0}'.format(1, 2)", "cannot switch from automatic field numbering"),
        ("'{2}'.format(1)", "Replacement index 2 out of range"),
        ("'{a}'.format(b=1)", "no key a"),
        ("'{'.format(1)", "Single '{' encountered"),
        ("'{0!x}'.format(1)", "Unknown conversion specifier x"),
        ("'{:d}'.format('a')", "Unknown format code 'd'"),
    ],
)
def test_str_format_raises_pythons_errors(expr: str, error: str) -> None:
    result = run(f"s = {expr}")
    assert result.error is not None
    assert error in result.error.message, result.error


def test_the_limit_counts_the_whole_result_not_each_part() -> None:
    """Just under the limit passes; one field more is refused (the count includes literal text)."""
    ok = _out("print(len(('x{0}' * 9).format('a' * 1000)))", SMALL)
    assert ok.strip() == "9009"
    assert_limit(run("s = ('x{0}' * 10).format('a' * 1000)", limits=SMALL), "size")
    assert _out("a = 'a' * 4999\nprint(len(f'{a}{a}.!'))", SMALL).strip() == "10000"
    assert_limit(run("a = 'a' * 5000\ns = f'{a}{a}.'", limits=SMALL), "size")
    assert _out("print(len('%(a)s%(a)s' % {'a': 'a' * 5000}))", SMALL).strip() == "10000"
    assert_limit(run("s = '%(a)s%(a)s.' % {'a': 'a' * 5000}", limits=SMALL), "size")


def test_a_field_is_formatted_once_however_often_it_is_used() -> None:
    """Formatting a list once for 1,000 uses: the check is not quadratic in the template."""
    out = _out("v = list(range(100))\nprint(len(('{0}' * 1000).format(v)))")
    assert out.strip() == str(len(str(list(range(100)))) * 1000)


def test_case_changes_of_ascii_and_short_text_are_unchecked_and_exact() -> None:
    out = _out("print('straße'.upper(), ('\ufb03' * 3).upper(), 'AbC'.swapcase())")
    assert out.strip() == "STRASSE FFIFFIFFI aBc"


@pytest.mark.parametrize(
    "source",
    [
        "import numpy as np\na = np.full(1000, 'a' * 10**5)",
        "import numpy as np\na = np.array(['a' * 10**5] * 1000)",
        "import numpy as np\na = np.repeat('a' * 10**5, 1000)",
        "import numpy as np\na = np.array([['a' * 10**5] * 100] * 10)",
        "import numpy as np\na = np.full_like(np.zeros(1000), 'a' * 10**5)",
    ],
)
def test_text_as_numpy_data_is_refused_before_numpy_builds_it(source: str) -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = run(source)
    assert result.error is not None and result.error.kind == "refused", result.error
    assert "<U100000" in result.error.message
    assert (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024 < 100
