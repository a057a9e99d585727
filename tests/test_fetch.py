"""The data-fetch path against a real HTTP server on 127.0.0.1 serving fixture files in Brain-Score's formats."""

import io
import json
import os
import socket
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import xarray as xr

import brainio_fixtures as fixtures
from brainpipe.benchmarks import builtin, default_catalog
from brainpipe.data import catalog
from brainpipe.data.archives import extract_zip_safely
from brainpipe.data.brainio import fetch_stimulus_set, load_assembly, read_brainio_csv
from brainpipe.data.download import FetchError, fetch_file, sha1_of

MAJAJ_NC = "assy_dicarlo_MajajHong2015_public.nc"
FZ_NC = "assy_movshon_FreemanZiemba2013_public.nc"


@pytest.fixture(autouse=True)
def no_proxy(monkeypatch):
    """Loopback must never go through a proxy configured on the machine."""
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")


@pytest.fixture
def test_catalog(store):
    return default_catalog().with_checksums(store[1])


def files_under(folder: Path):
    """Every file and folder below ``folder`` (folders with a trailing /), so empty leftovers show up too."""
    if not folder.exists():
        return []
    return sorted(str(p.relative_to(folder)) + ("/" if p.is_dir() else "") for p in folder.rglob("*"))


# --- downloads and the cache ----------------------------------------------------------------------------------


def test_fetch_downloads_then_uses_cache_without_network(store, server, test_catalog, tmp_path):
    remote = test_catalog.assembly("MajajHong2015.public").file
    log = io.StringIO()
    path = fetch_file(remote, tmp_path / "cache", server.url, progress=log)
    assert path == tmp_path / "cache" / remote.sha1 / MAJAJ_NC
    assert sha1_of(path) == remote.sha1 == sha1_of(store[0] / MAJAJ_NC)
    assert server.requests == ["/" + MAJAJ_NC]
    assert "100%" in log.getvalue() and "MB/s" in log.getvalue()
    assert files_under(tmp_path / "cache") == [f"{remote.sha1}/", f"{remote.sha1}/{MAJAJ_NC}"]  # no temp file

    again = fetch_file(remote, tmp_path / "cache", server.url, progress=None)
    assert again == path
    assert len(server.requests) == 1  # cache hit: no request at all


def test_cached_file_with_wrong_sha1_is_downloaded_again(server, test_catalog, tmp_path):
    remote = test_catalog.assembly("MajajHong2015.public").file
    stale = catalog.cache_path(remote, tmp_path)
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"not the file")
    log = io.StringIO()
    path = fetch_file(remote, tmp_path, server.url, progress=log)
    assert sha1_of(path) == remote.sha1
    assert "downloading it again" in log.getvalue()
    assert len(server.requests) == 1


def test_wrong_sha1_raises_and_leaves_nothing(server, tmp_path):
    remote = catalog.RemoteFile(MAJAJ_NC, "0" * 40)
    with pytest.raises(FetchError) as error:
        fetch_file(remote, tmp_path, server.url, progress=None)
    message = str(error.value)
    assert "wrong sha1" in message and "expected " + "0" * 40 in message
    assert server.url + MAJAJ_NC in message
    assert files_under(tmp_path) == []


def test_truncated_body_raises_and_leaves_nothing(store, server, test_catalog, tmp_path):
    remote = test_catalog.assembly("MajajHong2015.public").file
    size = (store[0] / MAJAJ_NC).stat().st_size
    server.truncate[MAJAJ_NC] = 1000
    with pytest.raises(FetchError, match=f"truncated: got 1000 of {size} bytes") as error:
        fetch_file(remote, tmp_path, server.url, progress=None)
    assert f"place it at {catalog.cache_path(remote, tmp_path)}" in str(error.value)
    assert files_under(tmp_path) == []


def test_http_404_names_url_and_manual_download_path(server, test_catalog, tmp_path):
    remote = test_catalog.assembly("MajajHong2015.public").file
    server.missing.add(MAJAJ_NC)
    with pytest.raises(FetchError) as error:
        fetch_file(remote, tmp_path, server.url, progress=None)
    message = str(error.value)
    assert "HTTP 404" in message
    assert f"download {server.url}{MAJAJ_NC} by hand" in message
    assert f"place it at {tmp_path / remote.sha1 / MAJAJ_NC}" in message
    assert files_under(tmp_path) == []


def test_server_down_says_unreachable(test_catalog, tmp_path):
    with socket.socket() as probe:  # a port that was free a moment ago and now has no listener
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    remote = test_catalog.assembly("MajajHong2015.public").file
    with pytest.raises(FetchError, match="unreachable"):
        fetch_file(remote, tmp_path, f"http://127.0.0.1:{port}/", progress=None, timeout=5)
    assert files_under(tmp_path) == []


def test_local_override_is_used_in_place_without_network(store, server, test_catalog, tmp_path):
    remote = test_catalog.assembly("MajajHong2015.public").file
    mine = {MAJAJ_NC: str(store[0] / MAJAJ_NC)}
    assert fetch_file(remote, tmp_path, server.url, local_overrides=mine, progress=None) == store[0] / MAJAJ_NC
    assert server.requests == []
    with pytest.raises(FetchError, match="no file there"):
        fetch_file(remote, tmp_path, server.url, local_overrides={MAJAJ_NC: str(tmp_path / "nope.nc")})
    wrong = tmp_path / "other.nc"
    wrong.write_bytes(b"x")
    with pytest.raises(FetchError, match="has sha1"):
        fetch_file(remote, tmp_path, server.url, local_overrides={MAJAJ_NC: str(wrong)})


# --- zip safety -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad_name", ["../evil.png", "/tmp/evil.png", "images/../../evil.png"])
def test_zip_with_escaping_entry_is_refused_and_nothing_extracted(tmp_path, bad_name):
    archive = tmp_path / "bad.zip"
    with zipfile.ZipFile(archive, "w") as writer:
        writer.writestr("fine.png", b"ok")
        writer.writestr(zipfile.ZipInfo(bad_name), b"evil")  # ZipInfo keeps the name as given
    dest = tmp_path / "out" / "images"
    with pytest.raises(FetchError) as error:
        extract_zip_safely(archive, dest)
    assert bad_name in str(error.value) and str(archive) in str(error.value)
    assert not dest.exists()
    assert files_under(tmp_path / "out") == []
    assert not (tmp_path / "evil.png").exists() and not Path("/tmp/evil.png").exists()


def test_zip_with_symlink_is_refused(tmp_path):
    archive = tmp_path / "link.zip"
    info = zipfile.ZipInfo("link.png")
    info.external_attr = (0o120777 << 16)  # S_IFLNK
    with zipfile.ZipFile(archive, "w") as writer:
        writer.writestr(info, "/etc/passwd")
    with pytest.raises(FetchError, match="symbolic link"):
        extract_zip_safely(archive, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_extract_replaces_destination_atomically(tmp_path):
    archive = tmp_path / "ok.zip"
    with zipfile.ZipFile(archive, "w") as writer:
        writer.writestr("a.png", b"a")
        writer.writestr("sub/b.png", b"b")
    dest = tmp_path / "out"
    dest.mkdir()
    (dest / "stale.png").write_bytes(b"old")
    assert extract_zip_safely(archive, dest) == ["a.png", "sub/b.png"]
    assert files_under(dest) == ["a.png", "sub/", "sub/b.png"]
    assert files_under(tmp_path) == ["ok.zip", "out/", "out/a.png", "out/sub/", "out/sub/b.png"]


# --- stimulus sets ----------------------------------------------------------------------------------------------


def test_fetch_stimulus_set_writes_brainpipe_format(server, test_catalog, tmp_path):
    out = tmp_path / "stimuli" / "hvm-public"
    csv = fetch_stimulus_set("hvm-public", tmp_path / "cache", server.url, out, catalog=test_catalog,
                             progress=None)
    assert csv == out / "stimuli.csv"
    table = pd.read_csv(csv, dtype={"stimulus_id": str, "image_id": str})
    assert list(table.columns[:2]) == ["stimulus_id", "filename"]
    assert {"image_id", "object_name", "category_name", "variation", "image_file_name"} <= set(table.columns)
    assert (table["stimulus_id"] == table["image_id"]).all()
    assert len(table) == 160 and table["object_name"].nunique() == 16
    assert all(name.startswith("images/") and (out / name).is_file() for name in table["filename"])
    assert [p for p in files_under(out) if not p.endswith("/")] == sorted(["stimuli.csv"] + list(table["filename"]))
    assert sha1_of(out / table["filename"][0]) == table["stimulus_id"][0]  # hvm image_id = sha1 of the PNG
    assert [p.name for p in out.parent.iterdir()] == ["hvm-public"]  # no staging folder left


def test_fetch_stimulus_set_accepts_single_folder_zip(tmp_path):
    root = tmp_path / "store"
    sums = fixtures.write_fixture_store(root, datasets=("FreemanZiemba2013.public",), zip_layout="folder")
    with zipfile.ZipFile(root / "stimulus_FreemanZiemba2013_aperture-public.zip") as archive:
        assert all(name.startswith("stimulus_FreemanZiemba2013_aperture-public/") for name in archive.namelist())
    out = tmp_path / "fz"
    csv = fetch_stimulus_set("FreemanZiemba2013.aperture-public", tmp_path / "cache", root.as_uri(), out,
                             catalog=default_catalog().with_checksums(sums), progress=None)
    table = pd.read_csv(csv)
    assert all((out / name).is_file() for name in table["filename"])
    assert set(table["texture_type"]) == {"noise", "texture"}


def test_csv_zip_mismatch_lists_missing_and_extra(tmp_path):
    root = tmp_path / "store"
    fixtures.write_fixture_store(root, datasets=("FreemanZiemba2013.public",))
    csv_name = "stimulus_FreemanZiemba2013_aperture-public.csv"
    table = pd.read_csv(root / csv_name)
    dropped = table["filename"][0]
    table.loc[1, "filename"] = "not-in-zip.png"
    table.drop(index=0).to_csv(root / csv_name, index=False)
    sums = {name: sha1_of(root / name) for name in (csv_name, "stimulus_FreemanZiemba2013_aperture-public.zip")}
    with pytest.raises(ValueError) as error:
        fetch_stimulus_set("FreemanZiemba2013.aperture-public", tmp_path / "cache", root.as_uri(), tmp_path / "out",
                           catalog=default_catalog().with_checksums(sums), progress=None)
    message = str(error.value)
    assert "not-in-zip.png" in message and dropped in message
    assert not (tmp_path / "out").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".out")] == []


# --- assemblies -------------------------------------------------------------------------------------------------


def test_load_majaj_assembly_adds_stimulus_id(store):
    assembly = load_assembly(store[0] / MAJAJ_NC)
    assert assembly.name == "dicarlo.MajajHong2015.public"
    assert assembly.dims == ("neuroid", "presentation", "time_bin") and assembly.dtype == np.float32
    assert (assembly["stimulus_id"].values == assembly["image_id"].values).all()
    assert set(assembly["region"].values) == {"V4", "IT"}
    assert assembly["time_bin_start"].values.tolist() == [70] and assembly["time_bin_end"].values.tolist() == [170]
    assert not assembly.indexes  # plain coordinates only


def test_load_assembly_merges_stimulus_columns_and_round_trips(store, server, test_catalog, tmp_path):
    csv = fetch_stimulus_set("FreemanZiemba2013.aperture-public", tmp_path / "cache", server.url, tmp_path / "fz",
                             catalog=test_catalog, progress=None)
    assembly = load_assembly(store[0] / FZ_NC, csv, stimulus_set_identifier="FreemanZiemba2013.aperture-public")
    assert assembly.dims == ("neuroid", "time_bin", "presentation")
    assert "filename" in assembly.coords  # only in the stimulus set, so merged
    table = pd.read_csv(csv, dtype={"stimulus_id": str}).set_index("stimulus_id")
    expected = table.loc[assembly["stimulus_id"].values, "filename"].to_numpy()
    assert (assembly["filename"].values == expected).all()
    assert assembly.attrs["stimulus_set_identifier"] == "FreemanZiemba2013.aperture-public"
    assembly.to_netcdf(tmp_path / "again.nc")
    assert xr.open_dataarray(tmp_path / "again.nc").load()["filename"].values.tolist() == expected.tolist()


def test_load_assembly_merge_fills_coords_missing_from_the_file(store, tmp_path):
    table = pd.read_csv(store[0] / "stimulus_hvm-public.csv", dtype={"image_id": str})
    features = np.zeros((len(table), 72))
    dropped = fixtures.majaj_assembly(table, features, fixtures.SCALES["tiny"], "dicarlo.MajajHong2015.public",
                                      drop_coords=("object_name", "category_name", "variation"))
    fixtures.write_netcdf(dropped, tmp_path / "dropped.nc")
    assembly = load_assembly(tmp_path / "dropped.nc", store[0] / "stimulus_hvm-public.csv")
    lookup = table.set_index("image_id")
    ids = assembly["stimulus_id"].values
    assert (assembly["object_name"].values == lookup.loc[ids, "object_name"].to_numpy()).all()
    assert (assembly["variation"].values == lookup.loc[ids, "variation"].to_numpy()).all()
    assert assembly["variation"].dtype.kind == "i"


def test_corrupt_netcdf_in_cache_says_delete_and_rerun(tmp_path):
    bad = tmp_path / "cache" / ("ab" * 20) / "assy_broken.nc"  # the cache layout <cache>/<sha1>/<file>
    bad.parent.mkdir(parents=True)
    bad.write_bytes(b"\x89HDF\r\n\x1a\n" + os.urandom(2000))
    with pytest.raises(FetchError, match="rerun to download it again") as error:
        load_assembly(bad)
    assert f"Delete {bad}" in str(error.value)


def test_corrupt_user_file_is_never_to_be_deleted(tmp_path):
    """A file of the user's own (data.local_files) is never the one the advice says to delete."""
    bad = tmp_path / "mine" / "assy_broken.nc"
    bad.parent.mkdir()
    bad.write_bytes(b"\x89HDF\r\n\x1a\n" + os.urandom(2000))
    with pytest.raises(FetchError) as error:
        load_assembly(bad)
    assert str(bad) in str(error.value) and "leaves it alone" in str(error.value)
    assert "delete" not in str(error.value).lower()
    archive = tmp_path / "mine" / "stimulus_broken.zip"
    archive.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(FetchError) as error:
        extract_zip_safely(archive, tmp_path / "out")
    assert "leaves it alone" in str(error.value) and "delete" not in str(error.value).lower()
    csv = tmp_path / "mine" / "stimulus_broken.csv"
    csv.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(FetchError) as error:
        read_brainio_csv(csv)
    assert "leaves it alone" in str(error.value) and "delete" not in str(error.value).lower()


def test_missing_coordinate_is_named(store, tmp_path):
    assembly = xr.open_dataarray(store[0] / MAJAJ_NC).load().drop_vars("region")
    assembly.to_netcdf(tmp_path / "no_region.nc")
    with pytest.raises(ValueError, match="'region' along neuroid"):
        load_assembly(tmp_path / "no_region.nc")
    assembly = xr.open_dataarray(store[0] / FZ_NC).load().drop_vars("time_bin_end")
    assembly.to_netcdf(tmp_path / "no_end.nc")
    with pytest.raises(ValueError, match="no_end.nc: missing coordinate 'time_bin_end' along time_bin"):
        load_assembly(tmp_path / "no_end.nc")


# --- catalog ----------------------------------------------------------------------------------------------------


def test_base_url_precedence(monkeypatch):
    monkeypatch.delenv("BRAINPIPE_DATA_URL", raising=False)
    assert catalog.base_url(None) == catalog.DEFAULT_BASE_URL
    monkeypatch.setenv("BRAINPIPE_DATA_URL", "http://mirror.example/data")
    assert catalog.base_url(None) == "http://mirror.example/data/"
    assert catalog.base_url("") == "http://mirror.example/data/"
    assert catalog.base_url("file:///shared/brainio") == "file:///shared/brainio/"


def test_catalog_entries_follow_brainscore_names():
    entry = default_catalog().assembly("MajajHong2015.private")
    assert entry.file == catalog.RemoteFile("assy_dicarlo_MajajHong2015_private.nc",
                                            "7a40d16148d6f82939155f0bd976d310857fb156")
    stimuli = default_catalog().stimulus_set(entry.stimulus_set)
    assert stimuli.zip.name == "stimulus_hvm-private.zip"
    assert default_catalog().stimulus_set("FreemanZiemba2013.aperture-public").csv.name == \
        "stimulus_FreemanZiemba2013_aperture-public.csv"
    assert catalog.url_of(entry.file, catalog.DEFAULT_BASE_URL) == \
        "https://brainscore-storage.s3.amazonaws.com/brainio-brainscore/assy_dicarlo_MajajHong2015_private.nc"


def test_unknown_keys_list_the_known_ones():
    with pytest.raises(ValueError, match="unknown assembly 'MajajHong2015.pubic'; known: .*MajajHong2015.public"):
        default_catalog().assembly("MajajHong2015.pubic")
    with pytest.raises(ValueError, match="unknown stimulus set 'hvm2'; known: .*hvm-public"):
        default_catalog().stimulus_set("hvm2")
    with pytest.raises(ValueError, match="unknown file"):
        default_catalog().with_checksums({"assy_nope.nc": "0" * 40})


def test_checksum_override_file(tmp_path, store):
    path = tmp_path / "checksums.json"
    path.write_text(json.dumps(store[1]))
    loaded = catalog.load_catalog(path, registry=builtin())
    assert loaded.assembly("MajajHong2015.public").file.sha1 == store[1][MAJAJ_NC]
    assert loaded.assembly("MajajHong2015.private").file.sha1 == "7a40d16148d6f82939155f0bd976d310857fb156"
    assert default_catalog().assembly("MajajHong2015.public").file.sha1 == "13d28ca0ce88ee550b54db3004374ae19096e9b9"
    assert catalog.load_catalog(None, registry=builtin()) == default_catalog()
    with pytest.raises(TypeError, match="registry"):  # data code does not import the families: they are passed
        catalog.load_catalog(path)
