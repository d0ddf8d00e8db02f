"use strict";
// The viewer's clock for the pages the server draws (the history): the browser's UTC offset, in
// minutes east of UTC, as a cookie the server reads. A page drawn at another offset (the first
// visit, or the phone has since changed time zone) is drawn again, once the cookie holds.
(() => {
  const offset = String(-new Date().getTimezoneOffset());
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = "plantleaf_utc_offset=" + offset + "; Path=/; SameSite=Strict; Max-Age=31536000" + secure;
  const drawn = document.querySelector('meta[name="plantleaf-utc-offset"]');
  if (drawn && drawn.content !== offset && document.cookie.split("; ").includes("plantleaf_utc_offset=" + offset)) location.reload();
})();
