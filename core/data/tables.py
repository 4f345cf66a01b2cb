"""Reading a user's file into a table: bytes in, a pandas DataFrame or a friendly error out.

:func:`read_table` takes what a student uploads (a CSV exported from a spreadsheet, a survey
tool or a script) and returns its cells, one column per header name: numbers as numbers, text
as text, missing cells as NaN. It only reads; deciding which columns become features is
:mod:`core.data.prepare`'s job.

Every problem is a :class:`TableError` whose message a student can act on. Messages never
quote the server's paths and never interpret what the file holds: names and values stay plain
text (the UI escapes them when it shows them).
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterator, Sequence

import numpy as np
import pandas as pd

__all__ = [
    "MAX_COLUMNS",
    "MAX_UPLOAD_MB",
    "MISSING_WORDS",
    "TableError",
    "read_table",
]

#: Largest upload in megabytes (MiB); ``.streamlit/config.toml`` sets ``server.maxUploadSize``
#: to the same number, so the uploader refuses bigger files before they reach the server.
MAX_UPLOAD_MB: int = 20
#: Most columns a table may have: every column may become a feature that each split searches
#: and that the feature pickers list; past a few hundred neither is useful in a lesson.
MAX_COLUMNS: int = 300
#: Cells holding one of these (ignoring case and surrounding spaces) are missing values.
MISSING_WORDS: frozenset[str] = frozenset(
    {"", "na", "n/a", "nan", "null", "none", "#n/a", "<na>", "?", "-nan"}
)

# Missing words as pandas should spot them while parsing (it compares exact spellings); the
# columns it leaves as text are checked again without case.
_NA_SPELLINGS = sorted(
    {spelling for word in MISSING_WORDS for spelling in (word, word.upper(), word.title())}
    | {"NaN", "-NaN"}
)
_DELIMITERS = {",": "comma", ";": "semicolon", "\t": "tab"}
_SNIFF_CHARS = 64 * 1024
# Magic bytes of common files that are not tables, with the words a student knows them by.
_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"%PDF", "a PDF document"),
    (b"PK\x03\x04", "a zip archive"),
    (b"PK\x05\x06", "an empty zip archive"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7z archive"),
    (b"Rar!", "a RAR archive"),
    (b"\xd0\xcf\x11\xe0", "an old Excel or Word file"),
    (b"SQLite format 3\x00", "an SQLite database"),
    (b"\x7fELF", "a program"),
    (b"II*\x00", "a TIFF image"),
    (b"MM\x00*", "a TIFF image"),
)
_SPREADSHEET_SUFFIXES = (".xlsx", ".xlsm", ".xls", ".ods", ".numbers")
# A number written with a decimal comma, as in "3,14" or "-0,5e3" (semicolon files only).
_DECIMAL_COMMA = re.compile(r"^\s*[+-]?\d*,\d+(?:[eE][+-]?\d+)?\s*$")


class TableError(ValueError):
    """A file that cannot be read as a table; ``str(error)`` tells a student what to fix."""


def _megabytes(n_bytes: int) -> str:
    return f"{n_bytes / (1024 * 1024):.1f} MB"


def _refuse_known_formats(data: bytes, filename: str) -> None:
    """Refuse spreadsheets, images, archives and documents, by their name or first bytes."""
    head = data[:8192]
    is_zip = head.startswith(b"PK\x03\x04")
    workbook = is_zip and (b"xl/" in head or b"opendocument.spreadsheet" in head)
    if filename.lower().endswith(_SPREADSHEET_SUFFIXES) or workbook:
        raise TableError(
            "This looks like a spreadsheet (Excel or similar), which Arboretum cannot open. "
            "In your spreadsheet program choose File → Save as… (or Download) → CSV, "
            "then upload the .csv file."
        )
    for signature, kind in _SIGNATURES:
        if data.startswith(signature):
            raise TableError(
                f"This file is {kind}, not a table. Upload a CSV file: plain text with one "
                "row per line and the values separated by commas, semicolons or tabs."
            )


def _check_is_plain_text(text: str) -> None:
    """Refuse decoded text with NUL or many control characters: a binary file read as text."""
    head = text[:8192]
    controls = sum(head.count(chr(code)) for code in range(32) if code not in (9, 10, 13))
    if "\x00" in head or controls > len(head) // 100:
        raise TableError(
            "This file is not plain text, so it is not a CSV table (it may be an image, an "
            "archive or a document). Upload a CSV file: one row per line, the values "
            "separated by commas, semicolons or tabs."
        )


def _decode(data: bytes) -> str:
    """Text from bytes: UTF-16 or UTF-8 with a byte-order mark, UTF-8, else Windows/Latin-1.

    Windows-1252 is tried before Latin-1 because spreadsheets on Windows write it (it has
    the euro sign and curly quotes); Latin-1 accepts any byte, so it is the last resort.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass  # not really UTF-16: the binary check below will judge the bytes
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def _records(text: str, delimiter: str) -> Iterator[tuple[int, list[str]]]:
    """The records of ``text`` with the line each starts on, blank lines left out."""
    reader = csv.reader(io.StringIO(text), delimiter=delimiter, quotechar='"', doublequote=True)
    line = 1
    try:
        for record in reader:
            if any(cell.strip() for cell in record):
                yield line, record
            line = reader.line_num + 1
    except csv.Error:
        raise TableError(
            f"Line {line} could not be read as part of a table: a value there is extremely "
            'long, which usually means a quote (") opens a value and never closes it.'
        ) from None


def _sniff(text: str) -> str:
    """The delimiter (comma, semicolon or tab) that splits the first lines most consistently.

    Each candidate parses the first 64 KB; the winner has the most rows as wide as its header
    (then the widest header). Quotes are honoured, so commas inside quoted values and decimal
    commas in a semicolon file do not fool it.
    """
    sample = text[:_SNIFF_CHARS]
    if len(text) > _SNIFF_CHARS:
        sample = sample[: sample.rfind("\n") + 1] or sample  # never judge a cut-off row
    best, best_score = ",", (-1.0, 0)
    for delimiter in _DELIMITERS:
        try:
            rows = [record for _, record in _records(sample, delimiter)]
        except TableError:
            continue
        if not rows:
            continue
        width = len(rows[0])
        score = (sum(len(row) == width for row in rows) / len(rows) if width > 1 else 0.0, width)
        if score > best_score:
            best, best_score = delimiter, score
    return best


def _names(header: Sequence[str]) -> list[str]:
    """Column names from the header row: spaces trimmed, a blank name becomes "column N"."""
    names = [cell.strip() or f"column {index + 1}" for index, cell in enumerate(header)]
    seen: dict[str, list[int]] = {}
    for index, name in enumerate(names):
        seen.setdefault(name, []).append(index + 1)
    repeated = {name: places for name, places in seen.items() if len(places) > 1}
    if repeated:
        name, places = next(iter(repeated.items()))
        where = " and ".join(str(place) for place in places)
        more = f" (and {len(repeated) - 1} more repeated names)" if len(repeated) > 1 else ""
        raise TableError(
            f"The column name {name!r} appears more than once (columns {where}){more}. "
            "Every column needs its own name: rename the repeats and upload again."
        )
    return names


def _float_or_nan(word: str) -> float:
    # Python's float reads what a spreadsheet writes; underscores ("1_000") are not numbers there.
    try:
        return float(word) if "_" not in word else math.nan
    except ValueError:
        return math.nan


def _as_integers(column: pd.Series) -> pd.Series:
    """Whole numbers as int64, as pandas reads them, unless a gap (NaN), an infinity or a number
    past 2**53 (where float64 stops counting every integer) forbids it."""
    values = column.to_numpy(dtype=np.float64)
    if np.all(np.abs(values) < 2.0**53) and np.all(values == np.round(values)):
        return column.astype(np.int64)
    return column


def _column(cells: pd.Series, decimal_comma: bool) -> pd.Series:
    """A column pandas could not read as numbers: numbers after all, or text.

    It is numbers when every filled cell is a number once missing words (see
    :data:`MISSING_WORDS`) and, in a semicolon file, decimal commas are accounted for; else
    text, which keeps its spelling without surrounding spaces. Missing cells are NaN either way.
    """
    text = cells.astype(object).where(cells.notna(), "").map(str).str.strip()
    missing = text.str.lower().isin(MISSING_WORDS).to_numpy()
    filled = text[~missing]
    if decimal_comma:
        filled = filled.where(~filled.str.match(_DECIMAL_COMMA), filled.str.replace(",", "."))
    numbers = pd.to_numeric(filled, errors="coerce")
    failed = numbers.isna().to_numpy()
    if failed.any():  # some pandas versions give up on overflow ("1e400"), which means inf
        retried = {word: _float_or_nan(word) for word in pd.unique(filled[failed])}
        numbers = numbers.where(~failed, filled.map(retried))
    if filled.size and not numbers.isna().any():
        values = np.full(len(cells), np.nan)
        values[~missing] = numbers.to_numpy(dtype=np.float64)
        return _as_integers(pd.Series(values))
    return text.where(~missing, np.nan).astype(object)


def _check_shape(text: str, delimiter: str) -> list[str]:
    """The column names, once the rows are known to line up under the header.

    The standard library's reader walks the file once, so a row that is too long or too
    short (which pandas would pad silently) is reported with its line number.
    """
    records = _records(text, delimiter)
    first = next(records, None)
    if first is None:
        raise TableError("This file is empty. Upload a CSV file with a header row and data rows.")
    header = first[1]
    if len(header) < 2:
        raise TableError(
            "Only one column was found (the values were tried as separated by commas, "
            "semicolons and tabs). A tree needs at least two columns: one or more to learn "
            "from and one to predict."
        )
    if len(header) > MAX_COLUMNS:
        raise TableError(
            f"This table has {len(header):,} columns; Arboretum takes at most {MAX_COLUMNS}, "
            "because every column may become a feature that each split must search and that "
            "the pickers must list. Keep the columns your lesson needs and upload again."
        )
    names = _names(header)
    uneven = [(line, record) for line, record in records if len(record) != len(names)]
    if uneven:
        line, record = uneven[0]
        more = f" ({len(uneven) - 1} more rows are uneven too)" if len(uneven) > 1 else ""
        values = "1 value" if len(record) == 1 else f"{len(record)} values"
        quote = (
            ' A quote (") seems to open a value there and close it lines later.'
            if any("\n" in cell for cell in record)
            else ""
        )
        raise TableError(
            f"Line {line} has {values} but the header has {len(names)} columns{more}. "
            f"Check that line for a missing or extra "
            f"{_DELIMITERS.get(delimiter, repr(delimiter))}, or for a value holding one "
            f"that is not in quotes.{quote}"
        )
    return names


def _text(data: bytes, filename: str) -> str:
    """The file's text with Unix line endings and no byte-order mark, once it is known to be a
    text file of a size the app takes (else a :class:`TableError` saying what it is)."""
    if len(data) > MAX_UPLOAD_MB * 1024 * 1024:
        raise TableError(
            f"This file is {_megabytes(len(data))}; the limit is {MAX_UPLOAD_MB} MB, to keep "
            "the app quick for the whole class. Upload fewer rows (a few thousand are plenty "
            "for a tree) or fewer columns."
        )
    if not data.strip():
        raise TableError("This file is empty. Upload a CSV file with a header row and data rows.")
    _refuse_known_formats(data, filename)
    text = _decode(data)
    _check_is_plain_text(text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


def _typed(table: pd.DataFrame, decimal_comma: bool) -> pd.DataFrame:
    """Every column as numbers or text, and rows of empty cells (``,,,``) dropped.

    pandas reads ``True``/``False`` as booleans (words here) and leaves as text a column with
    missing words or decimal commas (:func:`_column` reads it again).
    """
    for name in table.columns:
        column = table[name]
        if pd.api.types.is_bool_dtype(column):
            table[name] = column.map({True: "True", False: "False"}).astype(object)
        elif not pd.api.types.is_numeric_dtype(column):
            table[name] = _column(column, decimal_comma=decimal_comma)
    filled = table.notna().any(axis=1)
    if not filled.all():  # rows of empty cells: their gaps made integers floats
        table = table.loc[filled].reset_index(drop=True)
        for name in table.columns:
            if pd.api.types.is_float_dtype(table[name]):
                table[name] = _as_integers(table[name])
    return table


def read_table(data: bytes, filename: str) -> pd.DataFrame:
    """Read an uploaded CSV file into a table of numbers and text.

    The delimiter is sniffed (comma, semicolon or tab; a first line ``sep=;`` as Excel writes
    it decides it outright). Text may be UTF-8 (with or without a byte-order mark), UTF-16
    with a byte-order mark, Windows-1252 or Latin-1; line endings may be Windows', Unix's or old
    Mac's. Quoted values may hold delimiters, quotes (doubled) and line breaks. In a semicolon
    file, numbers may use a decimal comma (``3,14``). Blank lines and rows of empty cells are
    skipped.

    Parameters
    ----------
    data : bytes
        The file's content, at most :data:`MAX_UPLOAD_MB` megabytes.
    filename : str
        The file's name as the user had it; only its extension is used (to spot spreadsheets),
        and it never appears in a message.

    Returns
    -------
    DataFrame of shape (n_rows, n_columns)
        One column per header name (spaces trimmed, a blank name becomes ``"column N"``):
        int64 for whole numbers, float64 for other numbers or numbers with gaps, object
        (str, NaN where missing) for anything else. At least 2 rows and 2 columns.

    Raises
    ------
    TableError
        With a message for students: too big, empty, a spreadsheet, not a text file, one
        column, a header without rows, one row, repeated column names, a row with more or fewer
        values than the header (naming its line), more than :data:`MAX_COLUMNS` columns.
    TypeError
        If ``data`` is not bytes.
    """
    if not isinstance(data, bytes | bytearray | memoryview):
        raise TypeError(f"data must be bytes, got {type(data).__name__}")
    text = _text(bytes(data), str(filename))
    hint = re.match(r"sep=(.)\n", text)
    delimiter = hint.group(1) if hint else _sniff(text)
    # Blank lines before the header would shift pandas' rows against the reader's.
    body = re.sub(r"\A(?:[ \t]*\n)+", "", text[hint.end() :] if hint else text)
    names = _check_shape(body, delimiter)
    try:
        table = pd.read_csv(
            io.StringIO(body),
            sep=delimiter,
            quotechar='"',
            doublequote=True,
            skipinitialspace=True,
            keep_default_na=False,
            na_values=_NA_SPELLINGS,
            engine="c",
            low_memory=False,
        )
    except (pd.errors.ParserError, ValueError):
        raise TableError(
            "This file could not be read as a table even though its rows line up; check its "
            'quotes (") and save it again as CSV.'
        ) from None
    table = _typed(table.set_axis(names, axis=1), decimal_comma=delimiter == ";")
    if table.empty:
        raise TableError(
            "This file has a header row but no data rows. Add at least a few rows of values."
        )
    if len(table) < 2:
        raise TableError(
            "This file has only one data row; a tree learns from many rows (at least 2, "
            "better dozens). Add more rows and upload again."
        )
    return table
