// Settings > Tag keys: which tag and cost-category keys are answered from columns of their own, chosen from the keys
// on the organisation's costs (share of cost, distinct values, suggested), and the back-fill followed until each is
// active; with tag-keys:admin, and without it said so. The header and sign-in are page.js's.
'use strict';

const { $, ApiProblem, call, cell, clearError, showError, write, ownScopes } = SettingsPage;

/** Activated tag keys: while one back-fills, GET every POLL_MS, for at most POLL_LIMIT_MS. */
const TAG_KEYS = {
  POLL_MS: 2_000,
  POLL_LIMIT_MS: 120_000,
  MAX_PER_LIST: 50,
  KINDS: { tag: 'tag', costCategory: 'cost category' },
  STATES: { active: 'Active', backfilling: 'Back-filling' },
};
/** The running poll ({timer, deadline}), or null; `resumeTagKeysPoll`: stopped because the tab was hidden. */
let tagKeysPoll = null;
let resumeTagKeysPoll = false;
/** The keys last saved, until they are all active: the PUT's answer can come before a key it adds is recorded as back-filling. */
let tagKeysSaved = null;

const tagKeyId = (kind, key) => `${kind}\u0000${key}`;

function formatShare(share) {
  return `${Number((share * 100).toFixed(2))}%`;
}

/** The status line: how many keys are activated and whether any is still back-filling. */
function tagKeysSummary(activated, note = '') {
  const backfilling = activated.filter((a) => a.state === 'backfilling').length;
  const count = `${activated.length} activated key${activated.length === 1 ? '' : 's'}`;
  const text = !activated.length
    ? 'No key is activated: every question reads the full tag maps.'
    : backfilling
      ? `${count}, ${backfilling} back-filling: the existing rows are rewritten in the background, answers stay the same meanwhile.`
      : `${count}, all active.`;
  $('tag-keys-summary').textContent = note ? `${text} ${note}` : text;
}

/** `data`, with each key saved but not yet listed as activated shown back-filling (it is, from the PUT's 202 on). */
function withPending(data) {
  if (!tagKeysSaved) return data;
  const listed = new Set(data.activated.map((a) => tagKeyId(a.kind, a.key)));
  const pending = tagKeysSaved
    .filter(({ kind, key }) => !listed.has(tagKeyId(kind, key)))
    .map(({ kind, key }) => ({ kind, key, state: 'backfilling', updatedAt: '' }));
  return { ...data, activated: [...data.activated, ...pending] };
}

function stateCell(cellElement, activation) {
  cellElement.textContent = activation ? (TAG_KEYS.STATES[activation.state] ?? activation.state) : '—';
  cellElement.className = activation ? `state-${activation.state}` : '';
}

/** The whole table: the keys present, then any activated key not present; checked = activated. */
function renderTagKeys(data) {
  const activations = new Map(data.activated.map((a) => [tagKeyId(a.kind, a.key), a]));
  const rows = $('tag-key-rows');
  rows.replaceChildren();
  const present = new Set(data.present.map((p) => tagKeyId(p.kind, p.key)));
  const absent = data.activated.filter((a) => !present.has(tagKeyId(a.kind, a.key)));
  for (const entry of [...data.present, ...absent]) {
    const activation = activations.get(tagKeyId(entry.kind, entry.key));
    const row = document.createElement('tr');
    row.dataset.kind = entry.kind;
    row.dataset.key = entry.key;
    const choice = cell(row, '', 'choice');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = Boolean(activation);
    box.setAttribute('aria-label', `Answer ${TAG_KEYS.KINDS[entry.kind] ?? entry.kind} ${entry.key} at column speed`);
    choice.append(box);
    const kind = TAG_KEYS.KINDS[entry.kind] ?? entry.kind;
    cell(row, kind[0].toUpperCase() + kind.slice(1));
    write(cell(row, ''), { code: entry.key });
    const isPresent = 'costShare' in entry;
    cell(row, isPresent ? formatShare(entry.costShare) : '—', 'number');
    cell(row, isPresent ? entry.distinctValues.toLocaleString('en') : '—', 'number');
    stateCell(cell(row, ''), activation);
    const suggested = cell(row, '');
    if (entry.suggested) {
      const badge = document.createElement('span');
      badge.className = 'badge';
      badge.textContent = 'suggested';
      suggested.append(badge);
    }
    rows.append(row);
  }
  tagKeysSummary(data.activated);
}

/** A poll's answer: only the states and the status line, so boxes changed meanwhile stay as they are. */
function showTagKeyStates(data, note) {
  const activations = new Map(data.activated.map((a) => [tagKeyId(a.kind, a.key), a]));
  for (const row of $('tag-key-rows').rows) {
    stateCell(row.cells[5], activations.get(tagKeyId(row.dataset.kind, row.dataset.key)));
  }
  tagKeysSummary(data.activated, note);
}

function stopTagKeysPoll() {
  if (tagKeysPoll) clearTimeout(tagKeysPoll.timer);
  tagKeysPoll = null;
}

/** GET every 2 s until nothing back-fills, the section is hidden, or the time is up. */
function pollTagKeys() {
  stopTagKeysPoll();
  const poll = { timer: 0, deadline: Date.now() + TAG_KEYS.POLL_LIMIT_MS };
  tagKeysPoll = poll;
  const tick = async () => {
    if (tagKeysPoll !== poll) return;
    if ($('page').hidden || $('tag-keys-form').hidden) return stopTagKeysPoll();
    try {
      const data = withPending((await call('GET', '/admin/tag-keys')).data);
      if (tagKeysPoll !== poll || $('page').hidden) return; // stopped meanwhile (signed out, saved again)
      const backfilling = data.activated.some((a) => a.state === 'backfilling');
      const late = backfilling && Date.now() >= poll.deadline;
      showTagKeyStates(data, late ? 'Still back-filling after 2 minutes: reload the page to see its state later.' : '');
      if (backfilling && !late) poll.timer = setTimeout(tick, TAG_KEYS.POLL_MS);
      else tagKeysPoll = null;
      if (!backfilling) tagKeysSaved = null;
    } catch (error) {
      if (tagKeysPoll === poll) tagKeysPoll = null;
      showError(error);
    }
  };
  poll.timer = setTimeout(tick, TAG_KEYS.POLL_MS);
}

function afterTagKeys(answer) {
  const data = withPending(answer);
  renderTagKeys(data);
  if (data.activated.some((a) => a.state === 'backfilling')) return pollTagKeys();
  stopTagKeysPoll();
  tagKeysSaved = null;
}

/** The organisation's activated keys and the keys present, with tag-keys:admin; without it, said so (and nothing asked). */
async function loadTagKeys() {
  stopTagKeysPoll();
  tagKeysSaved = null;
  if (!(await ownScopes()).includes('tag-keys:admin')) {
    $('tag-keys-summary').textContent = '';
    $('tag-key-rows').replaceChildren();
    $('tag-keys-form').hidden = true;
    $('tag-keys-locked').hidden = false;
    return;
  }
  const { data } = await call('GET', '/admin/tag-keys');
  $('tag-keys-locked').hidden = true;
  $('tag-keys-form').hidden = false;
  afterTagKeys(data);
}

async function saveTagKeys(event) {
  event.preventDefault();
  clearError();
  const chosen = { tag: [], costCategory: [] };
  const saved = [];
  for (const row of $('tag-key-rows').rows) {
    if (!row.querySelector('input[type="checkbox"]').checked) continue;
    (chosen[row.dataset.kind] ??= []).push(row.dataset.key);
    saved.push({ kind: row.dataset.kind, key: row.dataset.key });
  }
  for (const [kind, keys] of Object.entries(chosen)) {
    if (keys.length > TAG_KEYS.MAX_PER_LIST) {
      throw new ApiProblem(
        `At most ${TAG_KEYS.MAX_PER_LIST} ${TAG_KEYS.KINDS[kind] ?? kind} keys can be activated (${keys.length} chosen).`,
      );
    }
  }
  const save = $('tag-keys-save');
  save.disabled = true;
  try {
    const { data } = await call('PUT', '/admin/tag-keys', chosen);
    tagKeysSaved = saved;
    afterTagKeys(data);
  } finally {
    save.disabled = false;
  }
}

/** A hidden tab asks nothing; shown again, it resumes a poll it stopped. */
function tagKeysVisibilityChanged() {
  if (document.hidden) {
    resumeTagKeysPoll = tagKeysPoll !== null;
    stopTagKeysPoll();
  } else if (resumeTagKeysPoll) {
    resumeTagKeysPoll = false;
    if (!$('page').hidden && !$('tag-keys-form').hidden) pollTagKeys();
  }
}

function resetTagKeys() {
  stopTagKeysPoll();
  resumeTagKeysPoll = false;
  tagKeysSaved = null;
  $('tag-key-rows').replaceChildren();
}

SettingsPage.start({
  setup() {
    $('tag-keys-form').addEventListener('submit', (event) => saveTagKeys(event).catch(showError));
    document.addEventListener('visibilitychange', tagKeysVisibilityChanged);
  },
  show: loadTagKeys,
  reset: resetTagKeys,
});
