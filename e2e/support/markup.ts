/** A name that would run script if any page rendered names as HTML. */
export const MARKUP_NAME = "<img src=x onerror=alert(1)>";
