#!/usr/bin/env python
"""tests/data/fixture_content_fingerprints.json: the NetCDF fixtures' content fingerprints
(brainio_fixtures.content_fingerprint), which tell a stored reference's files from others on any CPU (the files'
bytes differ in the last bit between CPU types: BLAS products), within brainio_fixtures.FINGERPRINT_RTOL. Run from
the repository root after changing a fixture writer (and its reference numbers), on any machine:

    .venv/bin/python tests/reference/make_fixture_fingerprints.py
"""
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import brainio_fixtures as bf  # noqa: E402
import neural_family_fixtures as nf  # noqa: E402
import neural_rest_fixtures as nr  # noqa: E402
import allen2022_fixtures  # noqa: E402
import fmri_fixtures  # noqa: E402
import zerbe2026_fixtures  # noqa: E402
import igustibagus_fixtures  # noqa: E402
import cowley2026_fixtures  # noqa: E402
import majaj_temporal_fixtures  # noqa: E402

STORES = {  # folder name -> writer of (file name -> sha1)
    "neural_families": lambda root: {**nf.write_store(root), **nf.li2026_store(root), **nf.cadena2017_store(root),
                                     **nf.bracci2019_store(root)},
    "neural_rest": nr.write_all,
    "allen2022": allen2022_fixtures.allen2022_store,
    "hebart2023_fmri": fmri_fixtures.hebart2023_fmri_store,
    "papale2025": fmri_fixtures.papale2025_store,
    "gifford2022": fmri_fixtures.gifford2022_store,
    "zerbe2026": zerbe2026_fixtures.write_store,
    "igustibagus2024": igustibagus_fixtures.write_store,
    "cowley2026": cowley2026_fixtures.write_store,
    "majaj_temporal": majaj_temporal_fixtures.majaj_temporal_store,
    "zerbe2026_persubject": zerbe2026_fixtures.write_persubject_store,
}

fingerprints = {}
with tempfile.TemporaryDirectory() as tmp:
    for folder, write in STORES.items():
        root = Path(tmp) / folder
        root.mkdir()
        for name in write(root):
            if name.endswith(".nc"):
                fingerprint = bf.content_fingerprint(root / name)
                earlier = fingerprints.get(name)
                assert earlier is None or not bf.fingerprint_mismatches(earlier, fingerprint), (
                    f"{name}: two stores write different contents")
                fingerprints[name] = fingerprint
bf.CONTENT_FINGERPRINTS.write_text(json.dumps(dict(sorted(fingerprints.items())), indent=1) + "\n")
print(f"{len(fingerprints)} fingerprints -> {bf.CONTENT_FINGERPRINTS}")
