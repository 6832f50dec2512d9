// The replay's build page: asks how far the build has come once a second, says it, and opens the
// replay (the same address) when it is ready or has been refused (the page then says why).
(function () {
  "use strict";
  const config = JSON.parse(document.getElementById("replay-status-config").textContent);
  const shown = document.getElementById("replay-progress");
  function say(status) {
    shown.dataset.state = status.state;
    const seconds = status.seconds !== undefined ? " (" + status.seconds + " s)" : "";
    shown.textContent = status.state === "waiting" ? "Waiting for the server to begin" + seconds + "."
      : "Under way: " + status.phase + seconds + ".";
  }
  function ask() {
    fetch(config.status, {credentials: "same-origin", cache: "no-store"})
      .then(function (answer) { return answer.json(); })
      .then(function (status) {
        if (status.state === "ready" || status.state === "failed") {
          window.location.reload();
          return;
        }
        say(status);
        window.setTimeout(ask, 1000);
      })
      .catch(function () { window.setTimeout(ask, 3000); });
  }
  window.setTimeout(ask, 500);
})();
