// The text of the before/after table's cells, for the Before/After view and the result view
// (loaded before table.js; unit tests run this very file). `wisCells(d, fields)` over the
// table's settings `d` (the #wis-head JSON of src/webview/changeTable.ts) gives
// `cell(row, i)`: [text before, text after, state], and `tip(field, value)`: the hover text.
// The fields shown as hours and as names are MINUTE_FIELDS and USER_FIELDS there (a test checks).
// @ts-check

/** @typedef {{empty: string, computed: string, people?: Record<string, string>, hours?: string, minutes?: string}} CellSettings */

/**
 * @param {CellSettings} d
 * @param {string[]} fields
 */
// eslint-disable-next-line no-unused-vars -- used by table.js and the tests (a global of the page)
function wisCells(d, fields) {
  var MIN = ['PlannedTime', 'ActualTime'], USR = ['LeaderId'];
  /** @param {unknown} id */
  function who(id){ var p = d.people || {}; return Object.prototype.hasOwnProperty.call(p, String(id)) ? p[String(id)] : String(id); }
  /** @param {number} m */
  function hrs(m){ return (d.hours || '{0} h').replace('{0}', String(Math.round((m / 60) * 100) / 100)); }
  /** @param {number} m */
  function mins(m){ return (d.minutes || '{0} min').replace('{0}', String(m)); }
  /** @param {Record<string, unknown>} a @param {string} k */
  function pick(a, k){ return a[k] != null ? a[k] : a[k.charAt(0).toUpperCase() + k.slice(1)]; }
  /** @param {string} f @param {unknown} v @returns {string} */
  function fmt(f, v){
    if (v === undefined || v === null || v === '') return d.empty;
    if (typeof v === 'number' && MIN.indexOf(f) >= 0) return hrs(v);
    if (USR.indexOf(f) >= 0 && (typeof v === 'string' || typeof v === 'number')) return who(v);
    if (typeof v === 'string') return (f === 'PlannedStartDate' || f === 'PlannedFinishDate') ? v.slice(0, 10) : v;
    if (typeof v !== 'object') return String(v);
    if (Array.isArray(v) && f === 'Assignments') return v.length ? v.map(function(a){ var p = pick(a || {}, 'partyId'), t = Number(pick(a || {}, 'plannedTime') || 0); return who(p != null ? p : '?') + ' (' + hrs(isFinite(t) ? t : 0) + ')'; }).join(', ') : d.empty;
    var j = JSON.stringify(v); return j === '{}' || j === '[]' ? d.empty : j;
  }
  // The hover of a value: minutes and user IDs as they are (the cell shows hours and names).
  /** @param {string} f @param {unknown} v @returns {string} */
  function tip(f, v){
    if (typeof v === 'number' && MIN.indexOf(f) >= 0) return mins(v);
    if (USR.indexOf(f) >= 0 && v != null && v !== '') return String(v);
    if (Array.isArray(v) && f === 'Assignments') return v.map(function(a){ var p = pick(a || {}, 'partyId'), t = Number(pick(a || {}, 'plannedTime') || 0); return String(p) + ': ' + mins(isFinite(t) ? t : 0); }).join(', ');
    return '';
  }
  // The value after of a change is shown as it is: null there is a cleared value (shown empty), never the value before.
  /** @param {unknown[]} row @param {number} i @returns {[string, string, number]} */
  function cell(row, i){ var st = /** @type {number} */ (row[4 + 3 * i]), b = fmt(fields[i], row[5 + 3 * i]); return [b, st === 2 ? d.computed : (st === 0 ? b : fmt(fields[i], row[6 + 3 * i])), st]; }
  return { cell: cell, tip: tip, MIN: MIN, USR: USR };
}
