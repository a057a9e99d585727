"""Downloads and archives under bad conditions, against real servers, real archives and a real full disk.

* zip bombs and oversized archives are refused before anything is written;
* a stalled server times out with the setting that raises the limit and the exact byte count;
* a body that ends early without Content-Length is reported as truncated;
* a full disk is named as such, with the folder, and leaves nothing behind.
"""

import contextlib
import io
import socket
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import pytest

from brainpipe.data import catalog
from brainpipe.data.archives import extract_zip_safely, max_unpacked_bytes
from brainpipe.data.download import DEFAULT_TIMEOUT_S, TIMEOUT_ENV, FetchError, download, fetch_file, sha1_of, timeout_s

MB = 1 << 20


def files_under(folder: Path):
    if not folder.exists():
        return []
    return sorted(str(p.relative_to(folder)) + ("/" if p.is_dir() else "") for p in folder.rglob("*"))


@pytest.fixture(autouse=True)
def no_proxy(monkeypatch):
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    monkeypatch.delenv(TIMEOUT_ENV, raising=False)


# --- zip bombs ----------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def zip_bomb(tmp_path_factory):
    """A real zip bomb: one 100 MiB entry of zeros, about 100 kB on disk (deflate's ~1000:1 on constant data)."""
    path = tmp_path_factory.mktemp("bomb") / "stimulus_bomb.zip"
    block = bytes(MB)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as writer:
        writer.writestr("a.png", b"png")
        info = zipfile.ZipInfo("zeros.png")
        info.compress_type = zipfile.ZIP_DEFLATED
        with writer.open(info, "w") as entry:
            for _ in range(100):
                entry.write(block)
    assert path.stat().st_size < 2 * MB
    return path


def test_zip_bomb_over_the_cap_is_refused_before_writing(zip_bomb, tmp_path):
    dest = tmp_path / "out" / "images"
    with pytest.raises(FetchError) as error:
        extract_zip_safely(zip_bomb, dest, max_bytes=10_000_000)
    message = str(error.value)
    assert str(zip_bomb) in message and f"declare {100 * MB + 3} bytes" in message
    assert "limit of 10000000 bytes" in message and "data.max_unpacked_gb" in message
    assert "Nothing was extracted" in message
    assert files_under(tmp_path / "out") == []  # not even a staging folder: the check comes before any write


def test_zip_bomb_under_the_cap_is_refused_by_its_ratio(zip_bomb, tmp_path):
    dest = tmp_path / "out" / "images"
    with pytest.raises(FetchError, match="zip bomb") as error:
        extract_zip_safely(zip_bomb, dest)  # default cap (20 GB) is far above 100 MiB
    assert "times larger" in str(error.value)
    assert files_under(tmp_path / "out") == []


def test_entry_larger_than_its_header_says_is_not_written_in_full(tmp_path):
    """An entry whose headers declare 10 bytes but whose data holds 1 MB: at most the declared bytes are read."""
    archive = tmp_path / "liar.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as writer:
        writer.writestr("liar.png", b"x" * MB)
    raw = bytearray(archive.read_bytes())
    size = MB.to_bytes(4, "little")
    # patch the uncompressed size in the local header (offset 22) and the central directory entry (offset 24)
    local, central = raw.find(b"PK\x03\x04"), raw.find(b"PK\x01\x02")
    assert raw[local + 22:local + 26] == size and raw[central + 24:central + 28] == size
    raw[local + 22:local + 26] = raw[central + 24:central + 28] = (10).to_bytes(4, "little")
    archive.write_bytes(bytes(raw))
    with pytest.raises(FetchError, match="liar.zip"):
        extract_zip_safely(archive, tmp_path / "out")
    assert files_under(tmp_path / "out") == []


def test_max_unpacked_setting():
    assert max_unpacked_bytes(None) == 20_000_000_000
    assert max_unpacked_bytes(0.01) == 10_000_000
    for bad in (0, -1, "big", True):
        with pytest.raises(ValueError, match="data.max_unpacked_gb"):
            max_unpacked_bytes(bad)


# --- servers that misbehave ----------------------------------------------------------------------------------------


@contextlib.contextmanager
def raw_server(respond):
    """A one-connection-at-a-time TCP server on 127.0.0.1 whose answer ``respond(connection)`` writes by hand."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.settimeout(0.05)  # accept() wakes up often enough to notice the stop event
    stop = threading.Event()

    def serve():
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            connection.settimeout(None)
            with connection:
                connection.recv(65536)  # the request; its content does not matter
                respond(connection, stop)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/assy_test.nc"
    finally:
        stop.set()
        listener.close()
        thread.join(timeout=5)


BODY = bytes(range(256)) * 4000  # 1,024,000 bytes
BODY_SHA1 = __import__("hashlib").sha1(BODY).hexdigest()


def stall_after(sent):
    def respond(connection, stop):
        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(BODY) + BODY[:sent])
        stop.wait(10)  # then nothing more: the client must time out
    return respond


def test_stalled_download_names_the_setting_and_the_exact_byte_count(tmp_path):
    with raw_server(stall_after(300_000)) as url:
        with pytest.raises(FetchError) as error:
            download(url, tmp_path / "cache" / "assy_test.nc", BODY_SHA1, progress=None, timeout=1)
    message = str(error.value)
    assert "no data for 1 s" in message and "after 300000 of 1024000 bytes" in message
    assert "data.timeout_s" in message and TIMEOUT_ENV in message
    assert files_under(tmp_path) == []


def test_timeout_setting_comes_from_config_then_environment(monkeypatch, tmp_path):
    assert timeout_s(None) == DEFAULT_TIMEOUT_S
    monkeypatch.setenv(TIMEOUT_ENV, "2.5")
    assert timeout_s(None) == 2.5
    assert timeout_s(300) == 300  # the config wins, as for data.base_url
    monkeypatch.setenv(TIMEOUT_ENV, "soon")
    with pytest.raises(ValueError, match=f"\\${TIMEOUT_ENV} = 'soon'"):
        timeout_s(None)
    with pytest.raises(ValueError, match="data.timeout_s = -1"):
        timeout_s(-1)
    # the environment variable really governs a download that is given no explicit timeout
    monkeypatch.setenv(TIMEOUT_ENV, "1")
    remote = catalog.RemoteFile("assy_test.nc", BODY_SHA1)
    with raw_server(stall_after(1000)) as url:
        with pytest.raises(FetchError, match="no data for 1 s"):
            fetch_file(remote, tmp_path, url.rsplit("/", 1)[0] + "/", progress=None)


def test_chunked_body_cut_short_says_truncated(tmp_path):
    def respond(connection, stop):
        head = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        connection.sendall(head + b"%x\r\n" % 5000 + BODY[:5000] + b"\r\n")  # no final 0-length chunk

    with raw_server(respond) as url:
        with pytest.raises(FetchError) as error:
            download(url, tmp_path / "assy_test.nc", BODY_SHA1, progress=None, timeout=5)
    message = str(error.value)
    assert "was truncated" in message and "after 5000 bytes" in message
    assert "different file" not in message
    assert files_under(tmp_path) == []


def test_body_without_length_that_ends_early_says_truncated(tmp_path):
    def respond(connection, stop):  # HTTP/1.0 style: the body ends when the server closes the connection
        connection.sendall(b"HTTP/1.0 200 OK\r\n\r\n" + BODY[:7000])

    with raw_server(respond) as url:
        with pytest.raises(FetchError) as error:
            download(url, tmp_path / "assy_test.nc", BODY_SHA1, progress=None, timeout=5)
    message = str(error.value)
    assert message.startswith(f"Download of {url} was probably truncated")
    assert "no Content-Length" in message and "7000 bytes" in message
    assert files_under(tmp_path) == []


# --- a full disk ---------------------------------------------------------------------------------------------------


def test_disk_full_during_download_says_so_with_the_folder(small_disk, tmp_path):
    served = tmp_path / "served"
    served.mkdir()
    (served / "assy_test.nc").write_bytes(BODY)  # 1 MB into a 256 kB file system
    remote = catalog.RemoteFile("assy_test.nc", BODY_SHA1)
    with pytest.raises(FetchError) as error:
        fetch_file(remote, small_disk, served.as_uri() + "/", progress=None)
    message = str(error.value)
    assert "disk is full" in message and str(small_disk / BODY_SHA1) in message
    assert "data.cache_dir" in message and "delete" not in message.lower()
    assert files_under(small_disk) == []


def test_disk_full_during_extraction_says_so_with_the_folder(small_disk, tmp_path):
    archive = tmp_path / "stimulus_big.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as writer:
        for index in range(4):
            writer.writestr(f"{index}.png", BODY[: 200_000])
    with pytest.raises(FetchError) as error:
        extract_zip_safely(archive, small_disk / "images")
    assert "disk is full" in str(error.value) and str(small_disk) in str(error.value)
    assert files_under(small_disk) == []
    assert sha1_of(archive)  # the archive itself is untouched


# --- a killed download -----------------------------------------------------------------------------------------------

DOWNLOADER = """
import sys
from brainpipe.data.download import download
download(sys.argv[1], sys.argv[2], sys.argv[3], progress=sys.stdout, timeout=60)
"""


def test_next_download_removes_the_part_file_of_a_killed_one(tmp_path):
    """A download killed with SIGKILL leaves its .part file; the next download of the same file removes it."""
    dest = tmp_path / "cache" / BODY_SHA1 / "assy_test.nc"
    with raw_server(stall_after(300_000)) as url:
        child = subprocess.Popen([sys.executable, "-c", DOWNLOADER, url, str(dest), BODY_SHA1],
                                 stdout=subprocess.PIPE, text=True)
        try:
            assert "downloading" in child.stdout.readline()
            deadline = time.monotonic() + 30
            while not [p for p in dest.parent.glob(".*.part") if p.stat().st_size > 0]:
                assert time.monotonic() < deadline, "the child never wrote its .part file"
                time.sleep(0.05)
        finally:
            child.kill()
            child.wait()
    left = [p.name for p in dest.parent.iterdir()]
    assert len(left) == 1 and left[0].endswith(".part") and f"~{child.pid}~" in left[0]

    served = tmp_path / "served"
    served.mkdir()
    (served / "assy_test.nc").write_bytes(BODY)
    log = io.StringIO()
    download((served / "assy_test.nc").as_uri(), dest, BODY_SHA1, progress=log)
    assert [p.name for p in dest.parent.iterdir()] == ["assy_test.nc"]
    assert f"removed {dest.parent / left[0]}, left by an interrupted download" in log.getvalue()
