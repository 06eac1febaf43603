"""The players' page: one self-contained HTML file for phones at the table.

Inline CSS and JS, the map drawn in SVG, no build step and nothing downloaded: the
host serves it at `/` and it polls `state.json` (the players' view) every two seconds,
redrawing only when the answer changed (an undo can bring back the same index).
Tapping a command zooms the map to it and keeps it in the address (`#command=ID`), so
a player's phone can open straight on their own corps. Every text from the battle goes in through
textContent, never as markup, so a unit named "<script>" shows as its name.
"""

PAGE = r"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Berthier: players' view</title>
<style>
:root{--ink:#222;--paper:#f6f3ea;--bad:#b01818;--muted:#666}
*{box-sizing:border-box}
body{margin:0;font:16px/1.35 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
 color:var(--ink);background:var(--paper)}
header{position:sticky;top:0;z-index:2;background:#2b2b2b;color:#fff;padding:6px 10px}
header h1{font-size:17px;margin:0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
#turn{font-size:15px;font-weight:600}
#conn{font-size:13px;color:#ccc}
#conn.down{color:#ff9a9a}
#over{display:none;background:var(--bad);color:#fff;padding:8px 10px;font-weight:700}
main{display:grid;grid-template-columns:1fr;gap:8px;padding:8px}
@media (min-width:900px){main{grid-template-columns:3fr 2fr}
 main>section:first-child{position:sticky;top:70px;align-self:start}}
#mapbox{background:#e9e4d4;border:1px solid #999;overflow:auto;touch-action:pan-x pan-y pinch-zoom}
#map{display:block;width:100%;height:auto}
#pick{min-height:1.4em;font-size:14px;padding:2px 4px}
.morale{display:flex;flex-wrap:wrap;gap:6px;margin:0 0 6px}
.army{flex:1 1 160px;border-radius:6px;padding:6px 8px;color:#fff;font-weight:600}
.army small{display:block;font-weight:400}
.cmd{background:#fff;border:1px solid #bbb;border-left:8px solid #888;border-radius:6px;
 margin:0 0 6px;padding:6px 8px}
.cmd.shaken{background:#fde8e8;border-color:var(--bad)}
.cmd.sel{outline:3px solid #f0a000}
.cmd .top{display:flex;justify-content:space-between;gap:6px;align-items:baseline}
.cmd .name{font-weight:700;font-size:17px}
.badge{background:var(--bad);color:#fff;border-radius:4px;padding:0 6px;font-size:13px;
 font-weight:700;white-space:nowrap}
.line{font-size:15px}
.muted{color:var(--muted)}
.bar{height:8px;background:#ddd;border-radius:4px;overflow:hidden;margin:3px 0}
.bar i{display:block;height:100%;background:#3a8a3a}
.shaken .bar i{background:var(--bad)}
details summary{cursor:pointer;font-size:14px;color:#345}
table.units{width:100%;border-collapse:collapse;font-size:14px}
table.units td{padding:2px 4px;border-top:1px solid #eee}
table.units td.n{text-align:right;white-space:nowrap}
tr.gone td{color:#999;text-decoration:line-through}
#log{font-size:14px;background:#fff;border:1px solid #bbb;border-radius:6px;padding:4px 8px}
#log div{border-top:1px solid #eee;padding:2px 0}
#log div:first-child{border-top:0}
h2{font-size:16px;margin:8px 0 4px}
</style></head>
<body>
<header><h1 id="title">Berthier</h1><div id="turn">Connecting to the host…</div>
<div id="conn">waiting for the first update</div></header>
<div id="over"></div>
<main>
<section><div id="mapbox"><svg id="map" xmlns="http://www.w3.org/2000/svg"
 viewBox="0 0 100 60" role="img" aria-label="the battlefield"></svg></div>
<div id="pick" class="muted">Tap a unit or a command.</div></section>
<section><div class="morale" id="morale"></div><div id="commands"></div>
<h2>Latest</h2><div id="log"></div></section>
</main>
<script>
"use strict";
const NS="http://www.w3.org/2000/svg", POLL_MS=2000;
const AREA={hill:["#d9c9a0","#8a6a3a",1],fields:["#e8e2a8","#b8ae60",2],rough:["#c8bfa8","#8c8068",2],
 marsh:["#b8c8a0","#6c8060",3],lake:["#8fb8e0","#3b6fa8",3],woods:["#8dbb6c","#3f6b2a",4],
 town:["#d8c8b0","#7a5a40",5]};
const LINE={river:["#4a86c8",1.2],stream:["#5c9ad8",0.45],road:["#b08850",0.6],wall:["#505050",0.25]};
let state=null, shown="", failures=0, lastOk=0;
// a picked command stays in the address (#command=ID): a player's phone can keep "my corps"
let selected=decodeURIComponent((location.hash.match(/command=([^&]*)/)||[])[1]||"");

function el(tag,attrs,text,ns){const e=ns?document.createElementNS(NS,tag):document.createElement(tag);
 for(const k in attrs||{})e.setAttribute(k,attrs[k]); if(text!==undefined)e.textContent=text; return e}
function svg(tag,attrs,text){return el(tag,attrs,text,true)}
function letters(n){let s="";n+=1;while(n){const r=(n-1)%26;s=String.fromCharCode(65+r)+s;n=Math.floor((n-1)/26)}return s}
function place(x,y){const g=state.table.grid;
 return g?letters(Math.floor(x/g))+"-"+(Math.floor(y/g)+1):x.toFixed(0)+"\", "+y.toFixed(0)+"\""}
function sideOf(id){return state.sides.find(s=>s.id===id)||{name:id,colour:"#777"}}
function pts(p){return p.map(q=>q[0]+","+q[1]).join(" ")}

function drawMap(){
 const m=document.getElementById("map"), t=state.table;
 m.setAttribute("viewBox",viewBox()); m.replaceChildren();
 const defs=svg("defs"); const pat=svg("pattern",{id:"hatch",width:"1",height:"1",
  patternUnits:"userSpaceOnUse",patternTransform:"rotate(45)"});
 pat.appendChild(svg("line",{x1:"0",y1:"0",x2:"0",y2:"1",stroke:"#c01010","stroke-width":"0.35"}));
 defs.appendChild(pat); m.appendChild(defs);
 m.appendChild(svg("rect",{x:0,y:0,width:t.width,height:t.height,fill:"#eef0dc"}));
 if(t.grid){const g=svg("g",{stroke:"#c8c8b0","stroke-width":"0.06"});
  for(let x=0;x<=t.width+1e-6;x+=t.grid)g.appendChild(svg("line",{x1:x,y1:0,x2:x,y2:t.height}));
  for(let y=0;y<=t.height+1e-6;y+=t.grid)g.appendChild(svg("line",{x1:0,y1:y,x2:t.width,y2:y}));
  m.appendChild(g)}
 const areas=state.terrain.filter(f=>f.shape==="area").sort((a,b)=>(AREA[a.kind]||[0,0,0])[2]-(AREA[b.kind]||[0,0,0])[2]);
 for(const f of areas){const c=AREA[f.kind]||["#ccc","#888"];
  const p=svg("polygon",{points:pts(f.points),fill:c[0],stroke:c[1],"stroke-width":"0.15"});
  p.appendChild(svg("title",{},f.name||f.kind)); m.appendChild(p)}
 for(const f of state.terrain.filter(f=>f.shape==="line")){const c=LINE[f.kind]||["#555",0.3];
  const l=svg("polyline",{points:pts(f.points),fill:"none",stroke:c[0],"stroke-width":c[1],
   "stroke-linecap":"round","stroke-linejoin":"round"});
  if(f.kind==="wall"&&f.variant!=="stone")l.setAttribute("stroke-dasharray","0.4 0.3");
  l.appendChild(svg("title",{},f.name||f.kind)); m.appendChild(l)}
 for(const f of state.terrain.filter(f=>f.shape==="point")){const q=f.points[0];
  m.appendChild(svg("rect",{x:q[0]-0.6,y:q[1]-0.6,width:1.2,height:1.2,
   fill:f.kind==="bridge"?"#9a7048":"#c8e0f4",stroke:"#3a2a1a","stroke-width":"0.12"}))}
 const shakenCmd=new Set(state.commands.filter(c=>c.shaken).map(c=>c.id));
 for(const u of state.units){const s=sideOf(u.side);
  const g=svg("g",{transform:"translate("+u.x+" "+u.y+") rotate("+u.facing+")","data-unit":u.id});
  g.classList.add("unit"); if(u.command===selected)g.classList.add("sel");
  g.appendChild(svg("rect",{x:-u.w/2,y:-u.d/2,width:u.w,height:u.d,fill:s.colour,
   stroke:u.command===selected?"#f0a000":"#111","stroke-width":u.command===selected?"0.35":"0.08"}));
  if(shakenCmd.has(u.command))g.appendChild(svg("rect",{x:-u.w/2,y:-u.d/2,width:u.w,height:u.d,fill:"url(#hatch)"}));
  g.appendChild(svg("line",{x1:-u.w/2,y1:-u.d/2,x2:u.w/2,y2:-u.d/2,stroke:"#000","stroke-width":"0.25"}));
  if(u.flags.includes("disordered"))g.appendChild(svg("rect",{x:-u.w/2-0.15,y:-u.d/2-0.15,
   width:u.w+0.3,height:u.d+0.3,fill:"none",stroke:"#f5c400","stroke-width":"0.2"}));
  const txt=svg("text",{x:0,y:0.35*Math.min(u.d,1.6),"text-anchor":"middle","font-size":Math.min(u.d,1.6)*0.9,
   fill:"#fff","font-weight":"700",transform:"rotate("+(-u.facing)+")"},String(u.hits));
  g.appendChild(txt);
  g.appendChild(svg("title",{},u.name+" — "+u.hits+"/"+u.max_hits+(u.flags.length?" ("+u.flags.join(", ")+")":"")));
  g.addEventListener("click",()=>pickUnit(u)); m.appendChild(g)}
 for(const l of state.leaders){if(l.eliminated)continue; const s=sideOf(l.side);
  const c=svg("circle",{cx:l.x,cy:l.y,r:l.general?1.1:0.8,fill:"#fff",stroke:s.colour,"stroke-width":"0.35"});
  c.appendChild(svg("title",{},l.name)); m.appendChild(c);
  if(l.general)m.appendChild(svg("text",{x:l.x,y:l.y+0.45,"text-anchor":"middle","font-size":"1.3",fill:s.colour},"★"))}
}

function viewBox(){const t=state.table, us=state.units.filter(u=>u.command===selected);
 if(!us.length)return "0 0 "+t.width+" "+t.height;
 // a picked command: the map zooms to its units, a margin round them, the table's shape kept
 let x0=Math.min(...us.map(u=>u.x)),x1=Math.max(...us.map(u=>u.x)),
     y0=Math.min(...us.map(u=>u.y)),y1=Math.max(...us.map(u=>u.y));
 let w=Math.max(x1-x0+12,24), h=Math.max(y1-y0+12,24*t.height/t.width);
 if(w/h<t.width/t.height)w=h*t.width/t.height; else h=w*t.height/t.width;
 w=Math.min(w,t.width); h=Math.min(h,t.height);
 const cx=Math.min(Math.max((x0+x1)/2,w/2),t.width-w/2), cy=Math.min(Math.max((y0+y1)/2,h/2),t.height-h/2);
 return (cx-w/2)+" "+(cy-h/2)+" "+w+" "+h}

function pickUnit(u){const c=state.commands.find(c=>c.id===u.command);
 document.getElementById("pick").textContent=u.name+" ("+(c?c.name:"no command")+"): "+u.hits+" of "+
  u.max_hits+" at "+place(u.x,u.y)+(u.flags.length?" — "+u.flags.join(", "):"")}

function drawMorale(){const box=document.getElementById("morale"); box.replaceChildren();
 for(const s of state.sides){const m=s.morale; const d=el("div",{class:"army"});
  d.style.background=s.colour; d.appendChild(document.createTextNode(s.name));
  d.appendChild(el("small",{},m.shaken+" of "+m.commands+" commands Shaken"+
   (m.concedes_at?" · concedes at "+m.concedes_at:""))); box.appendChild(d)}}

function drawCommands(){const box=document.getElementById("commands"); box.replaceChildren();
 const units={}; for(const u of state.units)units[u.id]=u;
 for(const s of state.sides){box.appendChild(el("h2",{},s.name));
  for(const c of state.commands.filter(c=>c.side===s.id)){
   const d=el("div",{class:"cmd"+(c.shaken?" shaken":"")+(c.id===selected?" sel":""),"data-command":c.id});
   d.style.borderLeftColor=s.colour;
   const top=el("div",{class:"top"}); top.appendChild(el("span",{class:"name"},c.name));
   if(c.shaken)top.appendChild(el("span",{class:"badge"},"SHAKEN")); d.appendChild(top);
   d.appendChild(el("div",{class:"line"},c.live+" of "+c.units+" units · "+c.lost+" lost"+
    (c.shaken?"":" (Shaken at "+c.shaken_at+")")+(c.disordered?" · "+c.disordered+" disordered":"")));
   const bar=el("div",{class:"bar"}), fill=el("i");
   fill.style.width=(c.max_hits?100*c.hits/c.max_hits:0)+"%"; bar.appendChild(fill); d.appendChild(bar);
   d.appendChild(el("div",{class:"line"},"Strength "+c.hits+" of "+c.max_hits));
   let lead="No leader";
   if(c.leader){lead=c.leader.name+(c.leader.arriving?" (to arrive)":c.leader.eliminated?" (lost)":" at "+place(c.leader.x,c.leader.y))}
   d.appendChild(el("div",{class:"line muted"},lead));
   if(c.to_arrive)d.appendChild(el("div",{class:"line muted"},c.to_arrive+" units "+c.arrival));
   const det=el("details"); det.appendChild(el("summary",{},"Units"));
   const tab=el("table",{class:"units"});
   for(const id of c.unit_ids){const u=units[id]; const tr=el("tr",u?{}:{class:"gone"});
    tr.appendChild(el("td",{},u?u.name:id)); tr.appendChild(el("td",{class:"n"},u?u.hits+"/"+u.max_hits:"lost"));
    tr.appendChild(el("td",{},u&&u.flags.length?u.flags.join(", "):"")); tab.appendChild(tr)}
   det.appendChild(tab); d.appendChild(det);
   d.addEventListener("click",e=>{if(e.target.closest("details"))return;
    selected=selected===c.id?"":c.id; render();
    history.replaceState(null,"",selected?"#command="+encodeURIComponent(selected):location.pathname+location.search);
    if(!selected)document.getElementById("pick").textContent="Tap a unit or a command.";
    else document.getElementById("mapbox").scrollIntoView()});
   box.appendChild(d)}}}

function drawLog(){const box=document.getElementById("log"); box.replaceChildren();
 for(const l of state.log.lines.slice().reverse())box.appendChild(el("div",{},l.index+". "+l.text));}

function render(){const t=state.turn;
 document.getElementById("title").textContent=state.battle+" · "+state.ruleset;
 const waiting=(state.acting&&state.acting.waiting)||[];
 document.getElementById("turn").textContent=!t.started?"Not started yet":
  "Turn "+t.turn+" of "+t.turns+" · "+t.active_name+" · "+t.phase_label+
  (t.to_act?" · "+t.to_act+" still to act":"")+(waiting.length?" · waiting for "+waiting.join(", "):"");
 const over=document.getElementById("over");
 over.style.display=t.over?"block":"none";
 over.textContent=t.over?(t.winner_name||"Nobody")+" wins: "+t.reason:"";
 drawMap(); drawMorale(); drawCommands(); drawLog();
 const picked=state.commands.find(c=>c.id===selected);
 if(picked)document.getElementById("pick").textContent=picked.name+" on the map (tap it again for the whole table)";
 document.body.dataset.index=String(state.log.index)}

function conn(text,down){const c=document.getElementById("conn"); c.textContent=text;
 c.className=down?"down":""}

async function poll(){
 try{const r=await fetch("state.json",{cache:"no-store"});
  if(!r.ok)throw new Error("the host answered "+r.status);
  const text=await r.text(); failures=0; lastOk=Date.now();
  if(text!==shown){state=JSON.parse(text); shown=text; render()}
  conn("Live · entry "+state.log.index+" · updated "+new Date().toLocaleTimeString(),false)
 }catch(e){failures+=1;
  conn("Host not reachable ("+(e.message||e)+")"+(lastOk?" · last update "+
   Math.round((Date.now()-lastOk)/1000)+" s ago":"")+" · retrying",true)}
 setTimeout(poll,failures?Math.min(10000,POLL_MS*failures):POLL_MS)}
poll();
</script></body></html>
"""
