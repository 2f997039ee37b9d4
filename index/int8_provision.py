"""Provisioning of MiniLM with INT8 weights: quantize the provisioned model once, check, keep.

:func:`provision_int8_model` fills ``<cache>/all-MiniLM-L6-v2-int8`` once per machine from
the float32 model (:func:`~index.provision.provision_model` first): its files are copied
into a work folder, a throwaway venv (``onnx`` and the runtime's own ``onnxruntime``
version) runs ``onnx_quantize.py`` on its ``model.onnx`` (no model hub, no torch), the
result is loaded by :class:`~index.model.FastEmbedEmbedder` and its vectors compared with
float32's, then it gets a ``provenance.json`` and is moved into place atomically. Same
lock, leftovers and provenance rules as the other models (``provision.py``). The weights
are the same MiniLM's: only their precision changes (see docs/embeddings.md).
"""

from __future__ import annotations

import shutil
import tempfile
import time
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np

from .errors import ModelUnavailable
from .model import MODEL_FILES, OPTIONAL_FILES, FastEmbedEmbedder, default_cache_dir
from .provision import (
    CHECK_TEXTS,
    Log,
    _finish,
    _provision_lock,
    _remove_leftovers,
    _run_program,
    _subprocess_env,
    _throwaway_venv,
    is_provisioned,
    provision_model,
)

__all__ = ["provision_int8_model", "load_minilm_int8", "has_vnni", "INT8_MODEL_ID",
           "INT8_DIR_NAME"]

INT8_MODEL_ID = "triform/all-MiniLM-L6-v2-int8"
INT8_DIR_NAME = "all-MiniLM-L6-v2-int8"
QUANTIZE_PROGRAM = Path(__file__).with_name("onnx_quantize.py")
QUANTIZE_LIMIT_S = 600
# The quantized model's vectors against float32's on the check texts. Measured: .9727 the
# least of CHECK_TEXTS (mixed scripts, "ok"), .9835 the least over 812 memory-like texts,
# .993 on average; a broken quantization (weights scrambled, wrong scales) lands far below.
INT8_MIN_COSINE = 0.95
# One text a run. The activations are quantized at run time with one scale for the whole
# input tensor, so in a batch a text's vector would depend on the texts beside it (cosine
# .978 at worst against the same text alone, over 192 memory-like texts): a memory stored
# in a batch would not match the same text stored alone, nor the embedding cache's row.
# Alone, a text always gets the same vector, and pays for no padding (on short texts it
# ran as fast as batches of 64, at load).
INT8_BATCH = 1


def _unavailable(reason: str) -> ModelUnavailable:
    return ModelUnavailable(INT8_MODEL_ID, reason)


def load_minilm_int8(cache_dir: Path | None = None, *, log: Log = print,
                     threads: int | None = None) -> FastEmbedEmbedder:
    """Provision the INT8 MiniLM if needed, then load it.

    :raise ModelUnavailable: it can be neither provisioned nor loaded.
    """
    return FastEmbedEmbedder(provision_int8_model(cache_dir, log=log), threads=threads,
                             model_id=INT8_MODEL_ID, batch_size=INT8_BATCH)


def provision_int8_model(cache_dir: Path | None = None, *, log: Log = print) -> Path:
    """Make sure MiniLM with INT8 weights is in ``cache_dir``; return its folder.

    :raise ModelUnavailable: the float32 model, the quantization or its check failed.
    """
    cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    target = cache_dir / INT8_DIR_NAME
    if is_provisioned(target, model=INT8_MODEL_ID):
        return target
    source = provision_model(cache_dir, log=log)
    with _provision_lock(cache_dir, log):
        if is_provisioned(target, model=INT8_MODEL_ID):
            return target
        _remove_leftovers(cache_dir)
        started = time.monotonic()
        _quantize(cache_dir, source, target, log)
        log(f"provisioning model: ready at {target} ({time.monotonic() - started:.1f} s)")
    return target


def _quantize(cache_dir: Path, source: Path, target: Path, log: Log) -> None:
    log("provisioning model: quantizing MiniLM's weights to INT8 (one time, ~30 s)")
    work = Path(tempfile.mkdtemp(prefix=".work-int8-", dir=cache_dir))
    log_file = work / "quantize.log"
    started = time.monotonic()
    try:
        env = {**_subprocess_env(), "TRIFORM_INT8_REDUCE_RANGE": "0" if has_vnni() else "1"}
        python = _throwaway_venv(work, ("onnx", f"onnxruntime=={version('onnxruntime')}"),
                                 env=env, log_file=log_file, log=log, weights=False)
        installed = time.monotonic()
        staging = work / INT8_DIR_NAME
        staging.mkdir()
        for name in (*MODEL_FILES, *OPTIONAL_FILES):
            if (source / name).is_file():
                shutil.copy2(source / name, staging / name)
        quantized = _run_program(python, QUANTIZE_PROGRAM, staging, what="the quantization",
                                 limit_s=QUANTIZE_LIMIT_S, env=env, log_file=log_file)
        check = _check_int8(staging, source)
        _finish(staging, target, {
            "source": "quantize",
            "from": str(source.name),
            "quantize": {**quantized["quantize"], "versions": quantized["versions"],
                         "install_seconds": round(installed - started, 1),
                         "total_seconds": round(time.monotonic() - started, 1)},
            "check": check,
        }, model=INT8_MODEL_ID)
    except ModelUnavailable as exc:
        raise _unavailable(f"INT8 quantization failed: {exc.reason}") from exc
    except Exception as exc:
        raise _unavailable(f"INT8 quantization failed: {type(exc).__name__}: {exc}") from exc
    finally:
        shutil.rmtree(work, ignore_errors=True)


def has_vnni(cpuinfo: Path = Path("/proc/cpuinfo")) -> bool:
    """Whether this CPU has VNNI (AVX-512 or AVX): then INT8 products add in 32 bits and the
    weights may use all 8 bits; without it (or where it cannot be read) they get 7, which
    onnxruntime's AVX2 kernels cannot saturate (the 2026-12-03 note measured that case:
    cosine to float32 .981 at worst)."""
    try:
        flags = cpuinfo.read_text(errors="replace").split()
    except OSError:
        return False
    return "avx512_vnni" in flags or "avx_vnni" in flags


def _check_int8(model_dir: Path, source: Path) -> dict[str, Any]:
    """The quantized model's vectors of CHECK_TEXTS against float32's: unit rows, close."""
    texts = list(CHECK_TEXTS)
    vectors = FastEmbedEmbedder(model_dir, model_id=INT8_MODEL_ID,
                                batch_size=INT8_BATCH).embed(texts)
    reference = FastEmbedEmbedder(source).embed(texts)
    norms = np.linalg.norm(vectors, axis=1)
    if vectors.shape != reference.shape or not np.allclose(norms, 1.0, atol=1e-4):
        raise _unavailable(f"the INT8 model gives shape {vectors.shape}, norms "
                           f"{norms.round(4).tolist()}")
    worst = float((vectors * reference).sum(1).min())
    if worst < INT8_MIN_COSINE:
        raise _unavailable(f"the INT8 model is too far from float32: cosine {worst:.4f} < "
                           f"{INT8_MIN_COSINE}")
    return {"texts": len(texts), "min_cosine_vs_float32": round(worst, 6)}
