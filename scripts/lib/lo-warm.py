#!/usr/bin/python3
# LibreOffice warm, as Gotenberg and unoserver run it: one soffice listening on a UNO socket,
# fed documents over UNO, so that its start-up is paid once and not per file. npm run bench:word,
# bench:sheet and bench:slides time it beside ours (scripts/lib/lo-warm.mjs drives this script).
#
#   /usr/bin/python3 scripts/lib/lo-warm.py --soffice /usr/bin/soffice --port P --profile DIR
#   /usr/bin/python3 scripts/lib/lo-warm.py --connect --port P     (an soffice already listening)
#
# Needs Debian's python3-uno, i.e. /usr/bin/python3: a pyenv python3 does not have the uno module.
# Reads one file path per stdin line; for each it loads the document (Hidden, ReadOnly), exports
# it to PDF with the export filter of the kind of document LibreOffice loaded it as (Writer's
# writer_pdf_Export for DOC/DOCX, Calc's calc_pdf_Export for XLSX/XLS/ODS, Impress's, Draw's: what
# soffice --convert-to pdf picks), closes it and prints one JSON line:
#   {"file": ..., "ok": true, "ms": load+export, "load_ms": ..., "export_ms": ..., "bytes": PDF size, "filter": ...}
#   {"file": ..., "ok": false, "ms": ..., "error": "..."}
# The first line printed is {"ready": true, "start_ms": ...} once soffice answers. The soffice it
# started is terminated when stdin closes or on SIGTERM/SIGINT; the PDF is not kept.
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import uno
from com.sun.star.beans import PropertyValue
from com.sun.star.connection import NoConnectException


def props(**kw):
    out = []
    for k, v in kw.items():
        p = PropertyValue()
        p.Name = k
        p.Value = v
        out.append(p)
    return tuple(out)


def alive(desktop):
    try:
        desktop.getCurrentFrame()
        return True
    except Exception:
        return False


# The document's service → its PDF export filter; the first one the document supports wins (a
# Writer/Web document also supports TextDocument, so it comes first).
PDF_FILTERS = (
    ("com.sun.star.text.WebDocument", "writer_web_pdf_Export"),
    ("com.sun.star.text.GlobalDocument", "writer_globaldocument_pdf_Export"),
    ("com.sun.star.text.TextDocument", "writer_pdf_Export"),
    ("com.sun.star.sheet.SpreadsheetDocument", "calc_pdf_Export"),
    ("com.sun.star.presentation.PresentationDocument", "impress_pdf_Export"),
    ("com.sun.star.drawing.DrawingDocument", "draw_pdf_Export"),
)


def pdf_filter(doc):
    for service, name in PDF_FILTERS:
        if doc.supportsService(service):
            return name
    raise RuntimeError("LibreOffice loaded it as a kind of document it has no PDF export for")


def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--soffice", default="soffice")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--profile", help="user profile directory (fresh; made if missing)")
    ap.add_argument("--connect", action="store_true", help="use an soffice already listening on --port")
    ap.add_argument("--start-timeout", type=float, default=120)
    a = ap.parse_args()

    proc = None
    desktop = None

    def stop(*_):
        if proc and proc.poll() is None:
            if desktop is not None:
                try:
                    desktop.terminate()  # a clean quit is quicker than a signal
                    proc.wait(5)
                except Exception:
                    pass
        if proc and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    t0 = time.perf_counter()
    if not a.connect:
        profile = a.profile or tempfile.mkdtemp(prefix="lo-warm-profile-")
        os.makedirs(profile, exist_ok=True)
        proc = subprocess.Popen(
            [
                a.soffice,
                f"-env:UserInstallation=file://{profile}",
                "--headless",
                "--invisible",
                "--norestore",
                f"--accept=socket,host=127.0.0.1,port={a.port};urp;",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    url = f"uno:socket,host=127.0.0.1,port={a.port};urp;StarOffice.ComponentContext"
    deadline = time.monotonic() + a.start_timeout
    while True:
        try:
            ctx = resolver.resolve(url)
            break
        except NoConnectException:
            if time.monotonic() > deadline or (proc and proc.poll() is not None):
                emit({"ready": False, "error": f"soffice did not answer on 127.0.0.1:{a.port}"})
                stop()
            time.sleep(0.1)
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    emit({"ready": True, "start_ms": round((time.perf_counter() - t0) * 1000)})

    # Inside the profile when there is one: whoever removes the profile removes this too, even
    # when this script is killed before its own clean-up.
    out_dir = tempfile.mkdtemp(prefix="lo-warm-out-", dir=a.profile if a.profile and not a.connect else None)
    try:
        for line in sys.stdin:
            path = line.strip()
            if not path:
                continue
            target = os.path.join(out_dir, "out.pdf")
            t = time.perf_counter()
            doc = None
            try:
                doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(os.path.abspath(path)), "_blank", 0, props(Hidden=True, ReadOnly=True))
                if doc is None:
                    raise RuntimeError("LibreOffice could not load it")
                loaded = time.perf_counter()
                pdf_export = pdf_filter(doc)
                doc.storeToURL(uno.systemPathToFileUrl(target), props(FilterName=pdf_export))
                done = time.perf_counter()
                emit({
                    "file": path,
                    "ok": True,
                    "ms": round((done - t) * 1000),
                    "load_ms": round((loaded - t) * 1000),
                    "export_ms": round((done - loaded) * 1000),
                    "bytes": os.path.getsize(target),
                    "filter": pdf_export,
                })
            except Exception as e:  # a refused or broken document is a result, not the end of the run
                emit({"file": path, "ok": False, "ms": round((time.perf_counter() - t) * 1000), "error": str(e).split("\n")[0][:300] or type(e).__name__})
                if not alive(desktop):
                    # soffice went down with this document (WordWithAttachments.docx takes it down
                    # over UNO): exit, so that the caller starts a new one as unoserver would.
                    doc = None
                    stop()
            finally:
                if doc is not None:
                    try:
                        doc.close(True)
                    except Exception:
                        pass
                if os.path.exists(target):
                    os.remove(target)
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)
    stop()


if __name__ == "__main__":
    main()
