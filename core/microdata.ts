/**
 * Microdata (`itemscope`/`itemprop`) values as the HTML standard defines them: which attribute
 * carries a property's value on which element, and which item a property belongs to. The page
 * metadata (document.html) and the brand and lead formats read items through here.
 */

/** A property's value per the microdata rules: the attribute that carries it depends on the element. */
export function itemValue(el: Element): string | null {
  const tag = el.tagName.toLowerCase();
  const attribute =
    tag === 'meta'
      ? 'content'
      : tag === 'time'
        ? 'datetime'
        : ['a', 'link', 'area'].includes(tag)
          ? 'href'
          : ['img', 'audio', 'video', 'source', 'embed', 'iframe', 'track'].includes(tag)
            ? 'src'
            : ['data', 'meter'].includes(tag)
              ? 'value'
              : null;
  const value = (attribute ? el.getAttribute(attribute) : null) ?? el.textContent;
  return value?.replace(/\s+/g, ' ').trim() || null;
}

/** The item an element's properties belong to: its nearest ancestor with itemscope. */
export function scopeOf(el: Element): Element | null {
  for (let p = el.parentElement; p; p = p.parentElement) if (p.hasAttribute('itemscope')) return p;
  return null;
}
