"""Download all-MiniLM-L6-v2's ONNX files with fastembed's own hub client.

A program, not a module of the runtime: ``provision.py`` runs it in a subprocess (with
``python -I``, under a hard time limit and with the hub's own timeouts set in the
environment), so a hung download can be killed without touching the server process.

Usage: ``python -I hub_download.py MODEL_ID CACHE_DIR``. Prints one JSON line:
``{"dir": <snapshot folder>, "repo": <hub repository>, "model_file": <onnx file in it>}``.
"""

from __future__ import annotations

import json
import sys

from fastembed.text.pooled_normalized_embedding import PooledNormalizedEmbedding

__all__: list[str] = []


def main(model_id: str, cache_dir: str) -> None:
    description = PooledNormalizedEmbedding._get_model_description(model_id)
    repo = description.sources.hf
    if repo is None:
        sys.exit(f"fastembed knows no hub repository for {model_id}")
    path = PooledNormalizedEmbedding.download_files_from_huggingface(
        repo, cache_dir=cache_dir, extra_patterns=[description.model_file])
    print(json.dumps({"dir": str(path), "repo": repo, "model_file": description.model_file}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
