// Small helpers for building HTML and SVG without inline styles or markup
// strings.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") {
      el.addEventListener(k.slice(2), v);
    } else if (k === "text") {
      el.textContent = v;
    } else {
      el.setAttribute(k, v === true ? "" : String(v));
    }
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** An HTML element: `h("p", {class: "x"}, "text", child)`. */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element. */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Whether the reader asked for less motion. */
export function reducedMotion() {
  return matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** `Light` or `Dark`. */
export function sideName(side) {
  return side === "light" ? "Light" : "Dark";
}

/** A percentage with one decimal. */
export function percent(x) {
  return `${(x * 100).toFixed(1)}%`;
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
