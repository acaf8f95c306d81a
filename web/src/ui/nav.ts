// Moving between pages without reloading.

let router: () => void = () => location.reload();

/** Sets what shows the page for the current address. */
export function setRouter(r: () => void): void {
  router = r;
}

/** Goes to `path` inside the app. */
export function go(path: string): void {
  history.pushState(null, '', path);
  router();
}
