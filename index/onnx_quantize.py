"""Quantize MiniLM's ONNX model to INT8 weights (dynamic quantization), in place.

A program, not a module of the runtime: ``int8_provision.py`` runs it with the interpreter
of a throwaway venv that holds ``onnx`` and the runtime's own ``onnxruntime`` version (the
runtime has no ``onnx``). It imports nothing of this package; run it with ``python -I``.

Usage: ``python -I onnx_quantize.py OUT CHECK TEXTS_JSON``. ``OUT/model.onnx`` is the
provisioned float32 model on entry and its INT8 version on exit: every weight MatMul
(``MatMulInteger``) and the embedding tables, with one scale per output channel (per
channel measured closer to float32 than one scale per tensor: mean cosine .993 against
.965 on 812 memory-like texts); activations are quantized at run time, per call. ``CHECK``
gets the versions, the settings, the seconds and the sha256 of both models; the caller
compares the vectors with float32's (the texts are unused here: no runtime to run them).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from importlib.metadata import version
from pathlib import Path

# onnx and onnxruntime.quantization exist in the throwaway venv; hence the ignores.
from onnxruntime.quantization import QuantType, quantize_dynamic  # type: ignore[import-not-found,unused-ignore]

__all__: list[str] = []

#: Set to "1" by the provisioning when the CPU lacks VNNI (``int8_provision.py``).
REDUCE_RANGE_ENV = "TRIFORM_INT8_REDUCE_RANGE"

SETTINGS = {"tool": "onnxruntime.quantization.quantize_dynamic", "weight_type": "QInt8",
            "per_channel": True}


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def main(out_dir: str, check_path: str) -> None:
    model = Path(out_dir) / "model.onnx"
    quantized = Path(out_dir) / "model.int8.onnx"
    started = time.monotonic()
    source_sha = _sha256(model)
    # Weights in 7 bits where the CPU has no VNNI: its u8s8 kernels add two products in
    # 16 bits, which full-range weights can saturate (onnxruntime's quantization docs).
    reduce_range = os.environ.get(REDUCE_RANGE_ENV) == "1"
    quantize_dynamic(str(model), str(quantized), weight_type=QuantType.QInt8,
                     per_channel=True, reduce_range=reduce_range)
    os.replace(quantized, model)
    Path(check_path).write_text(json.dumps({
        "quantize": {**SETTINGS, "reduce_range": reduce_range,
                     "seconds": round(time.monotonic() - started, 1),
                     "float32_sha256": source_sha, "int8_sha256": _sha256(model)},
        "versions": {name: version(name) for name in ("onnx", "onnxruntime")},
    }))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
