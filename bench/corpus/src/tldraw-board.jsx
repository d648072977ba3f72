// tldraw 5.4.2: the whiteboard with its tool palette, style panel, menus, zoom and page
// controls, and a few shapes drawn on mount (a sticky note selected). Assets (icons, fonts,
// translations) come from @tldraw/assets through the bundle, not from tldraw's CDN.
import { createRoot } from "react-dom/client";
import { Tldraw, createShapeId, toRichText } from "tldraw";
import { getAssetUrlsByImport } from "@tldraw/assets/imports";
import { ready } from "./lib/ready.js";

const assetUrls = getAssetUrlsByImport();

function onMount(editor) {
  editor.updateInstanceState({ isGridMode: false });
  const note = createShapeId("note");
  editor.createShapes([
    { id: createShapeId("box"), type: "geo", x: 220, y: 140, props: { geo: "rectangle", w: 240, h: 120, richText: toRichText("Sign-up form") } },
    { id: createShapeId("ellipse"), type: "geo", x: 560, y: 150, props: { geo: "ellipse", w: 200, h: 100, color: "green", richText: toRichText("Verify e-mail") } },
    { id: note, type: "note", x: 330, y: 330, props: { richText: toRichText("Ask legal about consent text"), color: "yellow" } },
    { id: createShapeId("label"), type: "text", x: 220, y: 80, props: { richText: toRichText("Onboarding flow v2") } },
  ]);
  editor.select(note);
  ready(500);
}

createRoot(document.getElementById("root")).render(
  <div style={{ position: "fixed", inset: 0 }}><Tldraw assetUrls={assetUrls} onMount={onMount} inferDarkMode={false} /></div>,
);
