/**
 * The dashboard's stylesheet. Below 700 px the tables turn into cards (each cell labelled by its
 * `data-label`) and long text wraps anywhere, so nothing is wider than a phone's screen.
 */
export const STYLE = `
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1d232a;background:#f6f7f9}
header{background:#17324d;color:#fff;padding:.7rem 1.5rem;display:flex;gap:1rem;align-items:center;flex-wrap:wrap}
header h1{font-size:1.15rem;margin:0;flex:1}main{max-width:1180px;margin:1rem auto;padding:0 1rem}
header a{color:#fff}header #message{color:#dbe4ee}header #message.err{color:#fff;background:#b42318;padding:0 .5rem;border-radius:4px}
section{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:1rem 1.2rem;margin-bottom:1rem;min-width:0}
h2{font-size:1.05rem;margin:.1rem 0 .8rem}h3{font-size:.95rem;margin:1rem 0 .4rem}
table{width:100%;border-collapse:collapse}
th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid #eef0f2;vertical-align:top;font-size:14px}
input,select,textarea{font:inherit;padding:.3rem .45rem;border:1px solid #bbc2ca;border-radius:5px;max-width:100%;background:#fff}
textarea{width:100%;min-height:3.2rem;font:13px/1.4 ui-monospace,monospace}
button{font:inherit;padding:.25rem .7rem;border-radius:5px;border:1px solid #17324d;background:#fff;color:#17324d;cursor:pointer}
button.primary{background:#17324d;color:#fff}button.danger{border-color:#b42318;color:#b42318}button.danger.primary{background:#b42318;color:#fff}
button:disabled{opacity:.5;cursor:default}
.muted{color:#68727d;font-size:13px}.err{color:#b42318}.wrap{overflow-wrap:anywhere}
.row{display:flex;gap:.5rem;flex-wrap:wrap;align-items:center}.row .grow{flex:1 1 14rem}
.badge{display:inline-block;padding:0 .45rem;border-radius:9px;font-size:12px;background:#e8ecf0;white-space:nowrap}
.changed{background:#fff1d6;color:#8a5300}.new,.initial{background:#e2efff;color:#1f4f96}.unchanged,.same{background:#e9f6ec;color:#22663a}
.error{background:#fdecec;color:#b42318}.paused{background:#eee;color:#555}
.notified{background:#e2efff;color:#1f4f96}.quiet{background:#f1f1f1;color:#68727d}
.tag{display:inline-block;background:#eef2f7;color:#34506b;border-radius:4px;padding:0 .35rem;margin:.15rem .25rem 0 0;font-size:12px}
.actions{display:flex;gap:.3rem;flex-wrap:wrap}td.why{min-width:7rem}
a{color:#17518a;cursor:pointer}tr.selected{background:#f1f6fb}
fieldset{border:1px solid #e3e7eb;border-radius:6px;margin:0 0 .8rem;padding:.6rem .8rem;min-width:0}
legend{font-weight:600;font-size:14px;padding:0 .3rem}
.fields{display:grid;grid-template-columns:repeat(auto-fit,minmax(15rem,1fr));gap:.6rem .9rem}
.fields label,.stack label{display:flex;flex-direction:column;gap:.15rem;font-size:13px;color:#3b4652;min-width:0}
.checks{display:flex;flex-wrap:wrap;gap:.3rem 1rem;font-size:14px}.checks label{display:inline-flex;gap:.3rem;align-items:center}
.condition{display:grid;grid-template-columns:minmax(8rem,2fr) repeat(3,minmax(4.5rem,1fr)) auto;gap:.4rem;margin-bottom:.4rem;align-items:center}
.condition input{width:100%}
.picker{border:1px solid #bbc2ca;border-radius:6px;margin-top:.5rem}
.picker iframe{width:100%;height:22rem;border:0;border-top:1px solid #eef0f2;background:#fff;display:block}
.picker .row{padding:.4rem .5rem}
.diff{font:13px/1.4 ui-monospace,monospace;white-space:pre-wrap;overflow-wrap:anywhere;border:1px solid #eef0f2;border-radius:6px;padding:.5rem;max-height:34rem;overflow:auto}
.diff .line{padding:0 .4rem;min-height:1.2em}.add{background:#e6f7ea}.del{background:#fdecec}.chg{background:#fffaf0}
.ctx{color:#68727d}.inline .add::before{content:"+ "}.inline .del::before{content:"− "}.gap{color:#8c96a0;font-style:italic}
ins{background:#b8ecc4;text-decoration:none}del{background:#f7c2c2}
.side{display:grid;grid-template-columns:1fr 1fr;gap:0}.side .line{border-right:1px solid #eef0f2}
.side-head{font:600 12px system-ui,sans-serif;color:#68727d;padding:.2rem .4rem}
.preview{max-height:22rem}
dialog{border:1px solid #dde1e6;border-radius:8px;max-width:min(30rem,92vw)}dialog::backdrop{background:#0005}
.feed-url{font:13px ui-monospace,monospace;overflow-wrap:anywhere;background:#f6f7f9;padding:.4rem;border-radius:5px}
@media (max-width:700px){
  header{padding:.6rem 1rem}main{padding:0 .5rem}section{padding:.8rem}
  table.cards thead{display:none}
  table.cards,table.cards tbody,table.cards tr,table.cards td{display:block;width:100%}
  table.cards tr{border:1px solid #e3e7eb;border-radius:6px;margin-bottom:.6rem;padding:.3rem .4rem}
  table.cards td{border:0;padding:.2rem .3rem}
  table.cards td.pick{display:inline-block;width:auto;margin-right:1.2rem}
  table.cards td[data-label]::before{content:attr(data-label) ": ";color:#68727d;font-size:12px}
  .condition{grid-template-columns:1fr 1fr 1fr}.condition input:first-child{grid-column:1/-1}
  .diff{font-size:12px}
}
`;
