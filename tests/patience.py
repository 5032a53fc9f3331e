"""How long a test waits for a condition before calling it hung.

Tests wait for conditions (a page shows the new image, the studio is idle), never for fixed times; this bound
only turns a hang into a failure. It is generous on purpose: a loaded 2-core machine (another build beside the
suite) draws many times slower than an idle one, and a slow condition is not a wrong one. PNP_TEST_PATIENCE
(seconds) changes it.
"""

import os

PATIENCE_S = float(os.environ.get("PNP_TEST_PATIENCE", "600"))
PATIENCE_MS = int(PATIENCE_S * 1000)  # Playwright counts in milliseconds
