"""Element ops through the client: create, spec and versions, readme, lifecycle, activity
across pages, composition, bundles."""

from __future__ import annotations

import io
import subprocess
from pathlib import Path

import pytest
from triform_client import Client, Conflict, ValidationError


def test_create_then_spec_update_version_and_restore(tf: Client) -> None:
    made = tf.circle("demo").create("memory", "notes", description="team notes",
                                    properties={"max_memories": 50})
    assert (made["path"], made["element_type"], made["version"]) == ("demo/notes", "memory", 1)
    notes = tf.element("demo/notes")
    assert notes.spec()["spec"]["properties"]["max_memories"] == 50
    updated = notes.spec_update({"max_memories": 80}, message="more room")
    assert updated["changed"] is True and updated["version"] == 2
    assert notes.spec_update({"max_memories": 80})["changed"] is False
    history = notes.version(history=True)
    assert history["version"] == 2 and len(history["history"]) == 2
    notes.restore(1)
    assert notes.spec()["spec"]["properties"]["max_memories"] == 50
    with pytest.raises(ValidationError) as bad:
        notes.spec_update({"max_memories": 0})
    assert "max_memories" in bad.value.message


def test_readme_and_lifecycle(tf: Client) -> None:
    memory = tf.element("demo/memory")
    assert memory.readme_update("# Team memory\n")["changed"] is True
    assert memory.readme_update("# Team memory\n")["changed"] is False
    assert memory.readme()["content"] == "# Team memory\n"
    assert memory.disable("moving")["changed"] is True
    with pytest.raises(Conflict):
        tf.memory("demo/memory").stats()
    assert memory.readme()["exists"] is True        # still answers while disabled
    assert memory.enable()["changed"] is True
    assert tf.memory("demo/memory").stats()["total"] == 0


def test_activity_iterates_every_page_newest_first(tf: Client) -> None:
    memory = tf.memory("demo/memory")
    for i in range(7):
        memory.store(f"memory {i}", "fact")
    events = list(memory.activity(page_size=3))
    ops = [e["op"] for e in events]
    assert ops[:7] == ["store"] * 7 and len(events) == len({e["seq"] for e in events})
    assert [e["seq"] for e in events] == sorted((e["seq"] for e in events), reverse=True)
    assert [e["seq"] for e in events] == \
        [e["seq"] for e in memory.activity_page(limit=1000)["events"]]
    assert all(e["path"] == "demo/memory" for e in events)
    circle = [e["seq"] for e in tf.circle("demo").activity(page_size=2)]
    assert set(e["seq"] for e in events) <= set(circle)


def test_compose_and_attachments(tf: Client) -> None:
    tf.circle("demo").create("auth-policy", "no-viewers",
                             properties={"deny": [{"role": "viewer"}]})
    added = tf.element("demo/memory").compose(add=[{"ref": "no-viewers"}])
    attachment = added["added"][0]["attachment_id"]
    assert [a["attachment_id"] for a in tf.element("demo/memory").attachments()
            ["attachments"]] == [attachment]
    assert tf.element("demo/memory").remove_modifier(attachment)["removed"] == attachment


def test_graph_and_schema_reads(tf: Client) -> None:
    memory = tf.element("demo/memory")
    assert memory.schema()["element_type"] == "memory"
    assert memory.tree()["element"]["path"] == "demo/memory"
    assert memory.context(depth=1)["element"]["path"] == "demo/memory"
    assert memory.intention()["resolved"]
    assert tf.circle("demo").batch_stats()["aggregate"]["children"] >= 1
    assert tf.element("demo/memory").update_meta({"owner": "ana"})["meta"]["owner"] == "ana"


def test_bundle_export_is_a_git_bundle_and_imports_as_a_new_element(
        tf: Client, tmp_path: Path, git_env: dict[str, str]) -> None:
    tf.element("demo/memory").readme_update("# travelled\n")
    out = io.BytesIO()
    size = tf.element("demo/memory").export_bundle(out)
    assert size == len(out.getvalue()) > 0
    bundle = tmp_path / "memory.bundle"
    bundle.write_bytes(out.getvalue())
    subprocess.run(["git", "clone", "-q", "-b", "draft", str(bundle), str(tmp_path / "wc")],
                   check=True, env=git_env)
    assert (tmp_path / "wc" / "README.md").read_text() == "# travelled\n"
    report = tf.circle("demo").import_bundle(out.getvalue(), slug="copy")
    assert report["counts"]["imported"] == 1
    assert tf.element("demo/copy").readme()["content"] == "# travelled\n"
    skipped = tf.circle("demo").import_envelope(tf.circle("demo").export_envelope())
    assert skipped["counts"]["imported"] == 0 and skipped["counts"]["skipped"] >= 2
    with pytest.raises(ValidationError) as bad:
        tf.circle("demo").import_bundle(b"not a bundle", slug="junk")
    assert bad.value.body["errors"]          # the report rides along with the error
