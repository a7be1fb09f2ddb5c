"""The Python module and a table file changed under it, or no file at all
(issue 41, findings 5 and 8): Tables.open reads the file into its own
memory, so truncating, zeroing or copying over the file afterwards changes
no answer and raises no SIGBUS; a FIFO is refused at once with an EightError.

EIGHT_TABLE (a table file) comes from CTest; PYTHONPATH finds the module.
"""
import os
import shutil
import threading

import pytest

import eight

TABLE = os.environ["EIGHT_TABLE"]


def test_answers_stay_the_tables_while_the_file_is_changed_in_place(tmp_path):
    path = tmp_path / "eight.tbl"
    shutil.copyfile(TABLE, path)
    size = path.stat().st_size
    tables = eight.Tables.open(str(path))
    for round in range(30):
        with open(path, "r+b") as f:
            if round % 3 == 0:
                f.truncate(size * (round % 10) // 10)
            elif round % 3 == 1:
                f.write(bytes(size))
            else:
                f.truncate(0)
                f.write(b"not a table\n")
        assert tables.distance("867254301") == 31
        assert len(tables.solve("867254301").path) == 31
        assert tables.distance("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15") == 1
        shutil.copyfile(TABLE, path)


def test_a_fifo_is_refused_at_once_with_an_eighterror(tmp_path):
    fifo = tmp_path / "fifo.tbl"
    os.mkfifo(fifo)
    done = []

    def attempt():
        for _ in range(100):
            with pytest.raises(eight.EightError) as refused:
                eight.Tables.open(str(fifo))
            done.append(str(refused.value))

    t = threading.Thread(target=attempt, daemon=True)
    t.start()
    t.join(60)  # a hang guard: refused at once, it took for ever
    if t.is_alive():
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("Tables.open waited on a FIFO")
    assert len(done) == 100
    assert done[-1] == f"{fifo}: not a regular file (a FIFO): a table is read from a regular file"
