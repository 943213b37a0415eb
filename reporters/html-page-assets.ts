// The report page's style and its one script, and the Content-Security-Policy that allows these
// two and nothing else: no other script runs (an escaping bug elsewhere could not start one) and
// the page can make no request (default-src 'none'), whatever text it holds.
import { createHash } from 'node:crypto'

const CSS = `
:root{--met:#1a7f37;--unmet:#cf222e;--optional:#9a6700;--error:#8250df;--tolerated:#9a6700;--line:#d0d7de;--bg:#fff;--fg:#1f2328;--dim:#59636e;--soft:#f6f8fa}
*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
header,section,form,main{padding:0 20px}h1{font-size:22px;margin:16px 0 0}.sub{color:var(--dim);margin:2px 0 8px}
h2{font-size:16px;margin:18px 0 6px}dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:0}dt{font-weight:600;color:var(--dim)}dd{margin:0}
#filters{position:sticky;top:0;background:var(--bg);border-bottom:1px solid var(--line);padding:8px 20px;display:flex;flex-wrap:wrap;gap:16px;align-items:center;z-index:2}
.legend{color:var(--dim)}.legend b{margin-left:8px}
table{border-collapse:collapse;width:100%}.scroll{overflow:auto;border:1px solid var(--line)}
th,td{border-bottom:1px solid var(--line);padding:6px 8px;text-align:left;vertical-align:top}
thead th{background:var(--soft);font-size:12px;color:var(--dim);font-weight:600}
table.tests{table-layout:fixed}col.c-test{width:20%}col.c-io{width:36%}col.c-assertions{width:44%}
tr.test>th{font-weight:600}.test-name{display:block;word-break:break-word}
.status{display:inline-block;margin-top:4px;padding:0 6px;border-radius:10px;font-size:12px;font-weight:600;border:1px solid currentColor}
.status.passed{color:var(--met)}.status.failed{color:var(--unmet)}.status.errored{color:var(--error)}.status.tolerated{color:var(--tolerated);background:#fff8c5}
.note{display:block;font-weight:400;font-size:12px;color:var(--dim);margin-top:4px}
details.text{margin:0 0 6px}details.text>summary{cursor:pointer;font-size:12px;color:var(--dim);font-weight:600}
details.text>summary .preview{display:block;font-weight:400;color:var(--fg);white-space:pre-wrap;word-break:break-word}
details.text[open]>summary .preview{display:none}
pre{white-space:pre-wrap;word-break:break-word;margin:2px 0 0;background:var(--soft);padding:6px 8px;border-radius:6px;font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;max-height:28em;overflow:auto}
ol.assertions,ul.verdicts,ul.parts,ol.iterations,ul.cassettes{list-style:none;margin:0;padding:0}
li.assertion{padding:0 0 8px}li.assertion+li.assertion{border-top:1px dashed var(--line);padding-top:6px}
.a-head{font-weight:600}.kind{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px;background:var(--soft);border:1px solid var(--line);border-radius:4px;padding:0 4px}
.tag{font-size:12px;color:var(--dim);font-weight:400;margin-left:6px}
.group{font-size:12px;font-weight:700;color:var(--dim);margin:6px 0 2px;text-transform:uppercase;letter-spacing:.03em}
ul.verdicts li,ul.parts li,ol.iterations li{margin:3px 0 0 0;padding-left:1.4em;text-indent:-1.4em}
.why{color:var(--fg)}.crit{font-weight:500}li[data-state=unmet] .crit{color:var(--unmet)}li[data-state=optional] .crit{color:var(--optional)}.dim{color:var(--dim)}.reason{margin:3px 0 0;white-space:pre-wrap}
.met{color:var(--met)}.unmet{color:var(--unmet);font-weight:700}.optional{color:var(--optional)}.error{color:var(--error);font-weight:700}
.changed{outline:2px solid #0969da;outline-offset:1px;border-radius:3px}
details.judge{margin-top:4px;font-size:12px;color:var(--dim)}details.judge summary{cursor:pointer}ul.cassettes li{word-break:break-all}
tr[hidden],section[hidden]{display:none}
#calibration pre{max-height:none}
svg.trend{display:block;margin-top:4px;overflow:visible}svg.trend polyline{fill:none;stroke:#0969da;stroke-width:1.5}svg.trend .axis{stroke:var(--line)}
svg.trend circle{fill:#0969da}svg.trend circle.moved{fill:#bf8700;stroke:#fff}svg.trend circle.passed{fill:var(--met)}svg.trend circle.failed,svg.trend circle.errored{fill:var(--unmet)}svg.trend circle.tolerated{fill:var(--tolerated)}
label.review{display:block;text-indent:0;font-size:12px;color:var(--dim);margin-top:2px}select.review{font-size:12px}
#review-form{display:flex;gap:12px;align-items:center;flex-wrap:wrap}li.verdict[data-reviewed]{background:#ddf4ff}
ul.moves{margin:0;padding-left:1.2em}#history h3{font-size:14px;margin:14px 0 6px}div.compare[hidden]{display:none}
`

const SCRIPT = `(function(){
var failedOnly=document.getElementById('failed-only'),file=document.getElementById('file-filter'),search=document.getElementById('search');
function apply(){
  var text=search.value.trim().toLowerCase();
  document.querySelectorAll('section.file').forEach(function(s){
    var rows=0;
    s.querySelectorAll('tr.test').forEach(function(r){
      var hide=(failedOnly.checked&&r.getAttribute('data-failed')!=='true')||(text!==''&&r.textContent.toLowerCase().indexOf(text)<0);
      r.hidden=hide;if(!hide)rows++;
    });
    s.hidden=(file.value!==''&&s.getAttribute('data-file')!==file.value)||rows===0;
  });
}
failedOnly.addEventListener('change',apply);file.addEventListener('change',apply);search.addEventListener('input',apply);
var ca=document.getElementById('compare-a'),cb=document.getElementById('compare-b');
function compare(){
  var a=Number(ca.value),b=Number(cb.value),lo=Math.min(a,b),hi=Math.max(a,b);
  document.querySelectorAll('div.compare').forEach(function(d){
    d.hidden=!(Number(d.getAttribute('data-a'))===lo&&Number(d.getAttribute('data-b'))===hi);
  });
  document.getElementById('compare-note').textContent=a===b?'The same run: pick two.':a>b?'Shown from the earlier run to the later.':'';
}
if(ca&&cb){ca.addEventListener('change',compare);cb.addEventListener('change',compare);}
var data=document.getElementById('review-data'),exportButton=document.getElementById('export-labels');
if(data&&exportButton){
  var review=JSON.parse(data.textContent),items=review.items,texts=review.texts,count=document.getElementById('review-count');
  document.querySelectorAll('li[data-review]').forEach(function(li){
    var item=items[Number(li.getAttribute('data-review'))],label=document.createElement('label'),select=document.createElement('select');
    label.className='review';label.appendChild(document.createTextNode('Review '));
    select.className='review';select.setAttribute('data-review',li.getAttribute('data-review'));
    select.setAttribute('aria-label','Review: the judge found "'+texts[item.c]+'" '+(item.s?'met':'unmet'));
    [['','not reviewed'],['right','judge right'],['wrong','judge wrong'],['met','should be met'],['unmet','should be unmet']].forEach(function(o){
      var option=document.createElement('option');option.value=o[0];option.textContent=o[1];select.appendChild(option);
    });
    select.addEventListener('change',update);label.appendChild(select);li.appendChild(label);
  });
  function marked(){return Array.prototype.filter.call(document.querySelectorAll('select.review'),function(s){return s.value!=='';});}
  function update(){
    var n=marked().length;count.textContent=n+' marked';exportButton.disabled=n===0;
    document.querySelectorAll('select.review').forEach(function(s){var li=s.closest('li');if(s.value)li.setAttribute('data-reviewed','');else li.removeAttribute('data-reviewed');});
  }
  exportButton.addEventListener('click',function(){
    var labeler=document.getElementById('reviewer').value.trim();
    var lines=marked().map(function(s){
      var item=items[Number(s.getAttribute('data-review'))],mark=s.value;
      var label=mark==='right'?item.s:mark==='wrong'?!item.s:mark==='met';
      var note='Reviewed on the report page ('+texts[item.w]+'): the judge found it '+(item.s?'met':'unmet')+', the reviewer '+(label===item.s?'agreed':'disagreed')+'.'+(item.cut?' Note: '+item.cut+'.':'');
      var row={output:texts[item.o]};
      if(item.i!==undefined)row.input=texts[item.i];
      row.criterion=texts[item.c];row.label=label;row.required=item.r;row.note=note;
      if(labeler)row.labeler=labeler;
      return JSON.stringify(row);
    });
    var link=document.createElement('a');
    link.href=URL.createObjectURL(new Blob([lines.join('\\n')+'\\n'],{type:'application/x-ndjson'}));
    link.download='labels.jsonl';document.body.appendChild(link);link.click();link.remove();
  });
}
})();`

const hash = (text: string): string =>
  `'sha256-${createHash('sha256').update(text).digest('base64')}'`

/** The page's `<style>` element. @internal */
export const STYLE_ELEMENT: string = `<style>${CSS}</style>`

/** The page's one `<script>` element: the filters (the page reads whole without it). @internal */
export const SCRIPT_ELEMENT: string = `<script>${SCRIPT}</script>`

/**
 * The page's policy, first in its `<head>`: its own style and script by hash, nothing else; no
 * request of any kind, no `<base>`, no form sent anywhere.
 * @internal
 */
export const CSP_META: string = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${hash(CSS)}; script-src ${hash(SCRIPT)}; base-uri 'none'; form-action 'none'">`
