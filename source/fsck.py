"""git's own object checks (fsck) on the objects a push, merge or import adds.

Our validator (``validate.py``) knows what may not live in an element; git knows what may
not live in any repository: a ``.gitmodules`` whose ``url`` is an option
(``--upload-pack=...``), whose submodule name climbs out (``../../y``), that is a directory
or a symbolic link, a ``.git`` entry, a malformed commit or tree. Such objects, once in a
repository, break every fsck-checking clone and every import of the element's own bundle
(issue 26), so they are refused as git's own ``receive.fsckObjects`` would.

:func:`fsck_findings` packs exactly the objects reachable from ``new`` and not from ``old``
(``git pack-objects --revs``) and indexes that pack with ``git index-pack --strict`` in a
scratch repository borrowing the element's objects (``objects/info/alternates``), so links
to objects already there resolve and nothing already in the repository is judged again.
The scratch repository lives inside the element's own repository folder (0700) and is
removed afterwards.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

__all__ = ["fsck_findings", "FSCK_SEVERITIES", "FSCK_TIMEOUT"]

#: Messages git only warns about by default that are errors in an element.
FSCK_SEVERITIES = "hasDotgit=error,hasDotdot=error,hasDot=error,nulInHeader=error"
FSCK_TIMEOUT = 300
_MESSAGE = re.compile(r"^error: object ([0-9a-f]{40}): (\w+): (.*)$")
_MAX_FINDINGS = 20

Finding = dict[str, str]


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_TERMINAL_PROMPT="0", LC_ALL="C")
    return env


def fsck_findings(path: Path | str, news: list[str], olds: list[str]) -> list[Finding]:
    """git's fsck verdict on the objects reachable from ``news`` and not from ``olds`` (hex
    commit ids) in the bare repository ``path``: one finding of kind ``fsck`` per message
    (``{"path": "<object id>", "kind": "fsck", "reason": "<msg-id>: <text>"}``), or none.
    A repository git cannot read at all is one finding too: refused, never passed."""
    git = shutil.which("git")
    if git is None:
        return [{"path": "/", "kind": "fsck", "reason": "git is not installed on the server"}]
    repo = Path(path).resolve()
    revs = "".join(f"{n}\n" for n in news) + "".join(f"^{o}\n" for o in olds)
    env = _env()
    with tempfile.TemporaryDirectory(dir=repo, prefix="triform-fsck-") as scratch:
        subprocess.run([git, "init", "-q", "--bare", scratch], env=env, check=True,
                       capture_output=True, timeout=FSCK_TIMEOUT)
        (Path(scratch) / "objects" / "info" / "alternates").write_text(
            f"{repo / 'objects'}\n")
        packer = subprocess.Popen([git, "--git-dir", str(repo), "pack-objects", "--revs",
                                   "--stdout", "-q"], env=env, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        indexer = None
        try:
            if _feed(packer, revs):
                indexer = subprocess.run(
                    [git, "--git-dir", scratch, "index-pack", "--stdin",
                     f"--strict={FSCK_SEVERITIES}"], env=env, stdin=packer.stdout,
                    capture_output=True, text=True, timeout=FSCK_TIMEOUT)
        finally:
            if packer.stdout is not None:
                packer.stdout.close()
            packer.wait(FSCK_TIMEOUT)
    # index-pack --strict stops at the first bad object, and pack-objects, still writing,
    # then dies of the broken pipe: the indexer's verdict comes first, or a hostile push
    # would be refused for the wrong reason whenever the packer is slower.
    if indexer is None or (indexer.returncode == 0 and packer.returncode != 0):
        return [{"path": "/", "kind": "fsck",
                 "reason": "git could not pack the pushed objects (missing or unreadable)"}]
    if indexer.returncode == 0:
        return []
    findings: list[Finding] = []
    for line in indexer.stderr.splitlines():
        found = _MESSAGE.match(line.strip())
        if found and len(findings) < _MAX_FINDINGS:
            finding = {"path": found[1], "kind": "fsck", "reason": f"{found[2]}: {found[3]}"}
            if finding not in findings:
                findings.append(finding)
    return findings or [{"path": "/", "kind": "fsck",
                         "reason": (indexer.stderr.strip().splitlines() or ["failed"])[-1]}]


def _feed(packer: subprocess.Popen[bytes], revs: str) -> bool:
    """Give ``pack-objects`` its revisions; False when it is gone already."""
    assert packer.stdin is not None
    try:
        packer.stdin.write(revs.encode())
        packer.stdin.close()
    except BrokenPipeError:
        return False
    return True
