"""Tests for ``read_table``: a corpus of good and bad files, written here byte by byte.

Each bad file expects its own friendly message; each good one the cells a student would see in
a spreadsheet. No binary file is committed: images, archives and encodings are built in code.
"""

from __future__ import annotations

import gzip
import io
import tomllib
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from core.data.tables import MAX_COLUMNS, MAX_UPLOAD_MB, TableError, read_table

ROOT = Path(__file__).resolve().parents[2]

# A tiny table as a spreadsheet shows it; the good files below all spell it differently.
EXPECTED = pd.DataFrame(
    {
        "height (cm)": [1.5, 2.25, np.nan],
        "legs": [4, 2, 8],
        "colour": ["brown", "grün, hell", np.nan],
        "kind": ["dog", "bird", "spider"],
    }
)


def zip_bytes(**files: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            archive.writestr(name.replace("__", "/"), text)
    return buffer.getvalue()


GOOD_FILES: dict[str, tuple[bytes, str]] = {
    "comma, UTF-8": (
        'height (cm),legs,colour,kind\n1.5,4,brown,dog\n2.25,2,"grün, hell",bird\n'
        ",8,,spider\n".encode(),
        "animals.csv",
    ),
    "semicolon, decimal commas, Windows line endings, Latin-1": (
        (
            "height (cm);legs;colour;kind\r\n1,5;4;brown;dog\r\n2,25;2;grün, hell;bird\r\n"
            ";8;;spider\r\n"
        ).encode("latin-1"),
        "animals.csv",
    ),
    "tab, UTF-8 with a byte-order mark, NA words": (
        "\ufeffheight (cm)\tlegs\tcolour\tkind\n1.5\t4\tbrown\tdog\n2.25\t2\tgrün, hell\tbird\n"
        "NA\t8\tN/A\tspider\n".encode(),
        "animals.tsv",
    ),
    "UTF-16 as Excel's Unicode text, old Mac line endings": (
        "height (cm)\tlegs\tcolour\tkind\r1.5\t4\tbrown\tdog\r2.25\t2\tgrün, hell\tbird\r"
        "\t8\t\tspider\r".encode("utf-16"),
        "animals.txt",
    ),
    "Excel's sep= line, quoted names, spaces and a blank line": (
        b'sep=,\n" height (cm) ", legs ,colour,kind\n1.5, 4 ,brown,dog\n\n'
        b'2.25,2,"gr\xc3\xbcn, hell",bird\n  ,8,null,spider\n,,,\n',
        "animals.csv",
    ),
}


@pytest.mark.parametrize("label", list(GOOD_FILES))
def test_good_files_read_as_the_same_table(label: str) -> None:
    data, filename = GOOD_FILES[label]
    table = read_table(data, filename)
    pd.testing.assert_frame_equal(table, EXPECTED, check_dtype=False)
    assert table["height (cm)"].dtype == np.float64 and table["legs"].dtype == np.int64
    assert table["colour"].dtype == object


def test_quoted_fields_keep_delimiters_quotes_and_line_breaks() -> None:
    data = b'name,note,score\n"Smith, J","said ""hi""\nthen left",3\nLee,plain,4\n'
    table = read_table(data, "notes.csv")
    assert table["name"].tolist() == ["Smith, J", "Lee"]
    assert table["note"].tolist() == ['said "hi"\nthen left', "plain"]
    assert table["score"].tolist() == [3, 4]


def test_semicolons_inside_quotes_do_not_fool_the_sniffer() -> None:
    data = b'a,b,c\n"x;y;z",1,2\n"p;q",3,4\n"r",5,6\n'
    assert list(read_table(data, "t.csv").columns) == ["a", "b", "c"]


def test_decimal_commas_only_in_semicolon_files() -> None:
    semicolon = read_table(b"x;y\n1,5;-0,25\n2;3e2\n", "t.csv")
    assert semicolon["x"].tolist() == [1.5, 2.0] and semicolon["y"].tolist() == [-0.25, 300.0]
    comma = read_table(b'x,y\n"1,5",1\n"2,5",2\n', "t.csv")
    assert comma["x"].tolist() == ["1,5", "2,5"]  # a quoted "1,5" in a comma file is text


def test_windows_1252_text_is_read() -> None:
    data = "price;item\n3;€ coupon\n4;“quoted”\n".encode("cp1252")
    assert read_table(data, "t.csv")["item"].tolist() == ["€ coupon", "“quoted”"]


def test_unicode_and_html_stay_plain_text() -> None:
    data = "<b>name</b>,t\n<script>alert(1)</script>,1\nÉlodie 🌳 &amp;,2\n".encode()
    table = read_table(data, "t.csv")
    assert list(table.columns) == ["<b>name</b>", "t"]
    assert table["<b>name</b>"].tolist() == ["<script>alert(1)</script>", "Élodie 🌳 &amp;"]


def test_blank_header_cells_are_named_by_position() -> None:
    table = read_table(b",a,\n0,1,x\n1,2,y\n", "t.csv")
    assert list(table.columns) == ["column 1", "a", "column 3"]


def test_infinities_and_overflowing_numbers_are_kept_for_prepare_to_judge() -> None:
    table = read_table(b"a,b\ninf,1e400\n-inf,2\n", "t.csv")
    assert table["a"].tolist() == [np.inf, -np.inf] and table["b"].iloc[0] == np.inf


def test_integers_beyond_float_precision_stay_floats() -> None:
    table = read_table(b"a,b\n99999999999999999999,1\n2,3\n", "t.csv")
    assert table["a"].dtype == np.float64 and table["b"].dtype == np.int64


def columns(n: int) -> bytes:
    header = ",".join(f"c{i}" for i in range(n))
    row = ",".join("1" for _ in range(n))
    return f"{header}\n{row}\n{row}\n".encode()


BAD_FILES: dict[str, tuple[bytes, str, str]] = {
    "empty": (b"", "t.csv", r"^This file is empty\."),
    "only spaces and blank lines": (b"  \n\r\n\t\n", "t.csv", r"^This file is empty\."),
    "header only": (b"a,b,c\n", "t.csv", r"header row but no data rows"),
    "one row": (b"a,b\n1,2\n", "t.csv", r"only one data row.*at least 2"),
    "one column": (b"value\n1\n2\n3\n", "t.csv", r"Only one column was found"),
    "duplicate names": (
        b"a,b,a,c,b\n1,2,3,4,5\n1,2,3,4,5\n",
        "t.csv",
        r"'a' appears more than once \(columns 1 and 3\) \(and 1 more repeated names\)",
    ),
    "names equal once trimmed": (b"a, a\n1,2\n3,4\n", "t.csv", r"'a' appears more than once"),
    "a row too long": (
        b"a,b\n1,2\n3,4\n5,6,7\n8,9\n",
        "t.csv",
        r"^Line 4 has 3 values but the header has 2 columns\. .*missing or extra comma",
    ),
    "a row too short, semicolons": (
        b"a;b;c\n1;2;3\n4;5\n6;7\n",
        "t.csv",
        r"^Line 3 has 2 values but the header has 3 columns \(1 more rows are uneven too\)\. "
        r".*semicolon",
    ),
    "a quote never closed": (
        b'a,b\n1,2\n"3,4\n5,6\n',
        "t.csv",
        r"Line 3 has 1 value .*A quote \(\"\) seems to open a value there",
    ),
    "too many columns": (
        columns(MAX_COLUMNS + 1),
        "t.csv",
        rf"has {MAX_COLUMNS + 1} columns; Arboretum takes at most {MAX_COLUMNS}, because",
    ),
    "thousands of columns": (columns(5000), "t.csv", r"has 5,000 columns"),
    "PNG image": (
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        "photo.csv",
        r"^This file is a PNG image",
    ),
    "JPEG image": (b"\xff\xd8\xff\xe0\x00\x10JFIF", "photo.jpg", r"^This file is a JPEG image"),
    "PDF": (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "report.pdf", r"^This file is a PDF document"),
    "zip archive": (zip_bytes(notes_txt="a,b\n1,2\n"), "data.zip", r"^This file is a zip archive"),
    "gzip archive": (gzip.compress(b"a,b\n1,2\n3,4\n"), "data.csv.gz", r"a gzip archive"),
    "xlsx by content": (
        zip_bytes(xl__workbook_xml="<workbook/>"),
        "data.csv",
        r"looks like a spreadsheet .*Save as.*CSV",
    ),
    "xlsx by name": (b"a,b\n1,2\n3,4\n", "Marks.XLSX", r"looks like a spreadsheet"),
    "old Excel": (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(64), "m.xls", r"spreadsheet"),
    "unknown binary": (bytes(range(256)) * 4, "t.csv", r"^This file is not plain text"),
    "text with NUL bytes": (b"a,b\n1,\x002\n3,4\n", "t.csv", r"not plain text"),
}


@pytest.mark.parametrize("label", list(BAD_FILES))
def test_bad_files_get_a_friendly_message(label: str) -> None:
    data, filename, pattern = BAD_FILES[label]
    with pytest.raises(TableError, match=pattern) as caught:
        read_table(data, filename)
    message = str(caught.value)
    assert "Traceback" not in message and "/" not in message.replace("/or", "")
    assert filename not in message  # the user's own file name is not echoed either


def test_files_over_the_size_limit_are_refused_before_reading() -> None:
    limit = MAX_UPLOAD_MB * 1024 * 1024
    # A PDF of exactly the limit passes the size check and then meets the next one.
    at_limit = b"%PDF" + b" " * (limit - 4)
    with pytest.raises(TableError, match=r"^This file is a PDF document"):
        read_table(at_limit, "t.csv")
    with pytest.raises(TableError, match=rf"is 20\.0 MB; the limit is {MAX_UPLOAD_MB} MB"):
        read_table(at_limit + b" ", "t.csv")


def test_table_errors_are_value_errors_and_other_types_are_refused() -> None:
    assert issubclass(TableError, ValueError)
    with pytest.raises(TypeError, match="data must be bytes, got str"):
        read_table("a,b\n1,2\n", "t.csv")  # type: ignore[arg-type]
    assert read_table(bytearray(b"a,b\n1,2\n3,4\n"), "t.csv").shape == (2, 2)


def test_streamlit_upload_limit_agrees_with_the_reader() -> None:
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["server"]["maxUploadSize"] == MAX_UPLOAD_MB
