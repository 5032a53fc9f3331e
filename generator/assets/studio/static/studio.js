// pnp studio: live pages (server-sent events), filters and the print-guide toggle. No framework, no build step.
(function () {
  "use strict";
  const body = document.body;
  const pageGame = body.dataset.game;
  const status = () => document.getElementById("status");

  // -- toggles kept between pages ---------------------------------------------------------------------------
  function setupToggles() {
    const guides = document.getElementById("t-guides");
    if (guides) {
      guides.checked = localStorage.getItem("pnp-guides") === "1";
      guides.addEventListener("change", () => {
        localStorage.setItem("pnp-guides", guides.checked ? "1" : "0");
        body.classList.toggle("guides", guides.checked);
      });
    }
    body.classList.toggle("guides", localStorage.getItem("pnp-guides") === "1" && !!guides);
    const vision = document.getElementById("t-vision");
    if (vision) {  // every picture as a colour-blind player sees it (kept between pages, like the others)
      const known = Array.from(vision.options, (option) => option.value);
      const apply = () => {
        if (vision.value) body.dataset.vision = vision.value; else delete body.dataset.vision;
      };
      const restore = () => {  // the choice kept, also on a page the browser shows again from its history
        const kept = localStorage.getItem("pnp-vision") || "";
        vision.value = known.includes(kept) ? kept : "";
        apply();
      };
      vision.addEventListener("change", () => { localStorage.setItem("pnp-vision", vision.value); apply(); });
      window.addEventListener("pageshow", restore);
      restore();
    }
    const ink = document.getElementById("t-ink");
    if (ink) {
      ink.checked = localStorage.getItem("pnp-ink") === "saver";
      ink.addEventListener("change", () => {
        localStorage.setItem("pnp-ink", ink.checked ? "saver" : "normal");
        applyInk(document);
      });
      applyInk(document);
    }
  }

  // -- the ink saver: each face image has the address of its ink-saver drawing (drawn when first asked for) ----
  function inkOn() {
    const ink = document.getElementById("t-ink");
    return !!ink && ink.checked;
  }

  function applyInk(root) {
    for (const img of root.querySelectorAll("img[data-ink]")) {
      if (!img.dataset.normal) img.dataset.normal = img.getAttribute("src");
      const want = inkOn() ? img.dataset.ink : img.dataset.normal;
      if (img.getAttribute("src") !== want) img.setAttribute("src", want);
    }
    const zoom = document.getElementById("t-zoom");
    if (zoom) {
      zoom.value = localStorage.getItem("pnp-zoom") || zoom.value;
      const apply = () => document.documentElement.style.setProperty("--zoom", zoom.value);
      zoom.addEventListener("input", () => { localStorage.setItem("pnp-zoom", zoom.value); apply(); });
      apply();
    }
  }

  // -- filters: by deck, by text, by field value (kept in the address, so a filtered view can be shared) -------
  const filters = { deck: "f-deck", q: "f-text", field: "f-field", value: "f-value" };
  const el = (id) => document.getElementById(id);

  function tileFields(tile) {
    try { return JSON.parse(tile.dataset.fields || "{}"); } catch (e) { return {}; }
  }

  function fillValues() {
    const field = el("f-field"), value = el("f-value");
    if (!field || !value) return;
    const wanted = value.dataset.wanted || value.value;
    const seen = new Set();
    for (const tile of document.querySelectorAll(".face")) {
      const v = tileFields(tile)[field.value];
      if (v === undefined || v === null) continue;
      for (const one of Array.isArray(v) ? v : [v]) seen.add(String(one));
    }
    const values = [...seen].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
    value.replaceChildren(new Option("any value", ""), ...values.map((v) => new Option(v, v)));
    value.value = values.includes(wanted) ? wanted : "";
    delete value.dataset.wanted;
  }

  function applyFilters() {
    if (!el("f-deck")) return;
    const deck = el("f-deck").value, q = el("f-text").value.trim().toLowerCase();
    const field = el("f-field").value, value = el("f-value").value.toLowerCase();
    let shown = 0, total = 0;
    for (const tile of document.querySelectorAll(".face")) {
      total += 1;
      let ok = !deck || tile.dataset.deck === deck;
      if (ok && q) ok = q.split(/\s+/).every((word) => (tile.dataset.search || "").includes(word));
      if (ok && field) {
        const v = tileFields(tile)[field];
        if (v === undefined || v === null) ok = false;
        else if (value) ok = (Array.isArray(v) ? v : [v]).some((one) => String(one).toLowerCase() === value);
      }
      tile.hidden = !ok;
      if (ok) shown += 1;
    }
    for (const section of document.querySelectorAll("[data-deck-section]")) {
      section.hidden = !section.querySelector(".face:not([hidden])");
    }
    const count = el("f-count");
    if (count) count.textContent = shown === total ? `${total} faces` : `showing ${shown} of ${total} faces`;
    const params = new URLSearchParams(location.search);
    for (const [name, id] of Object.entries(filters)) {
      const v = el(id).value;
      if (v) params.set(name, v); else params.delete(name);
    }
    const query = params.toString();
    history.replaceState(null, "", location.pathname + (query ? "?" + query : "") + location.hash);
  }

  function setupFilters() {
    if (!el("f-deck")) return;
    const params = new URLSearchParams(location.search);
    for (const [name, id] of Object.entries(filters)) {
      if (params.has(name)) el(id).value = params.get(name);
    }
    if (params.has("value")) el("f-value").dataset.wanted = params.get("value");
    fillValues();
    el("f-field").addEventListener("change", () => { fillValues(); applyFilters(); });
    for (const id of ["f-deck", "f-value"]) el(id).addEventListener("change", applyFilters);
    el("f-text").addEventListener("input", applyFilters);
    applyFilters();
  }

  // -- live: fetch this page again when its game changed, and swap it in once the new images are loaded ---------
  let fetching = false, again = false;

  async function preload(doc) {
    const have = new Set([...document.images].map((img) => img.src));
    const fresh = [...doc.querySelectorAll("#live img")].map((img) => new URL(img.getAttribute("src"), location.href).href)
      .filter((src) => !have.has(src));
    const loads = fresh.map((src) => { const img = new Image(); img.src = src; return img.decode().catch(() => null); });
    await Promise.race([Promise.all(loads), new Promise((done) => setTimeout(done, 1500))]);
  }

  async function refresh() {
    if (fetching) { again = true; return; }
    fetching = true;
    try {
      do {
        again = false;
        const response = await fetch(location.href, { cache: "no-store" });
        if (!response.ok) { again = false; break; }
        const doc = new DOMParser().parseFromString(await response.text(), "text/html");
        applyInk(doc);
        await preload(doc);
        const live = doc.getElementById("live");
        if (live) document.getElementById("live").replaceWith(document.adoptNode(live));
        const tabs = doc.getElementById("tabs"), shown = document.getElementById("tabs");
        if (tabs && shown) shown.replaceWith(document.adoptNode(tabs));
        body.dataset.version = doc.body.dataset.version;
        fillValues();
        applyFilters();
      } while (again);
    } catch (e) {
      again = false;
    } finally {
      fetching = false;
    }
  }

  function setStatus(kind, text) {
    const s = status();
    if (!s) return;
    s.className = "status " + kind;
    s.textContent = text;
    s.title = kind === "off" ? "Not connected: pages do not update until pnp serve runs again"
                             : "Live: pages update on every save";
  }

  function connect() {
    const source = new EventSource("/events");
    let greeted = false;
    source.onmessage = (message) => {
      const event = JSON.parse(message.data);
      if (event.type === "hello") {
        setStatus(event.busy ? "busy" : "live", event.busy ? "drawing…" : "live");
        const versions = event.versions || {};
        const mine = pageGame ? (versions[pageGame] || 0)
                              : Object.values(versions).reduce((a, b) => a + b, 0);
        if (greeted || String(mine) !== body.dataset.version) refresh();
        greeted = true;
      } else if (event.type === "status") {
        setStatus(event.busy ? "busy" : "live", event.busy ? "drawing…" : "live");
      } else if (event.type === "game" && (!pageGame || event.game === pageGame)) {
        refresh();
      } else if (event.type === "job-line" || event.type === "job") {
        showJob(event);
      }
    };
    source.onerror = () => setStatus("off", "disconnected: is pnp serve running?");
  }

  // -- build and validate (the print page): start a job, show its lines and its end --------------------------
  let jobShown = null;

  function showJob(event) {
    const log = el("job-log"), state = el("job-state");
    if (!log || !state) return;
    if (event.type === "job-line") {
      if (jobShown === null) jobShown = Number(log.dataset.job) || null;  // a run started before the page
      if (event.job !== jobShown) return;
      log.textContent += (log.textContent ? "\n" : "") + event.line;
      return;
    }
    if (event.game !== pageGame.split("@")[0]) return;  // a translation's page shows its game's runs
    if (!event.ended) {
      jobShown = event.job;
      log.textContent = "";
      el("job-details").open = true;
      state.textContent = "pnp " + event.kind + " is running…";
      el("job-problems").hidden = true;
      return;
    }
    state.textContent = "pnp " + event.kind + (event.ok ? " finished: no problems." : " found problems.");
    const box = el("job-problems");
    box.querySelector("strong").textContent = "Problems found by pnp " + event.kind;
    box.querySelector("ul").replaceChildren(...event.problems.map((p) => {
      const li = document.createElement("li"); li.textContent = p; return li;
    }));
    box.hidden = event.problems.length === 0;
    for (const button of document.querySelectorAll(".job-button")) button.disabled = false;
    if (event.ok) refresh();  // the new files in the list
  }

  function setupJobs() {
    // on the document: the buttons are swapped with the rest of the page on every refresh
    document.addEventListener("click", async (event) => {
      const button = event.target.closest(".job-button");
      if (!button) return;
      for (const b of document.querySelectorAll(".job-button")) b.disabled = true;
      const response = await fetch("/g/" + encodeURIComponent(pageGame) + "/jobs/" + button.dataset.job,
                                   { method: "POST" });
      if (response.status === 202) return;  // its lines and its end come as events
      const answer = await response.json().catch(() => ({ error: "the studio refused" }));
      el("job-state").textContent = answer.error;
      for (const b of document.querySelectorAll(".job-button")) b.disabled = false;
    });
  }

  // -- a card's page: the arrow keys go to the previous and next card ----------------------------------------
  function setupKeys() {
    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement?.tagName)) return;
      const rel = event.key === "ArrowLeft" ? "prev" : event.key === "ArrowRight" ? "next" : null;
      const link = rel && document.querySelector(`a[rel="${rel}"]`);
      if (link) location.href = link.href;
    });
  }

  setupToggles();
  setupFilters();
  setupJobs();
  setupKeys();
  connect();
})();
