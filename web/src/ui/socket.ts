// A WebSocket to the server that opens again when it drops, pausing 0.25 s, then twice as long
// each time up to 8 s; the caller says where to resume from each time.

/** What the socket tells its owner. */
export interface SocketEvents {
  /** A frame arrived (parsed JSON object). */
  frame: (f: Record<string, unknown>) => void;
  /** The connection opened (`again` after a drop). */
  open: (again: boolean) => void;
  /** The connection dropped; it will be opened again in `retryMs`. */
  down: (retryMs: number) => void;
}

/** A socket that reconnects until closed. */
export class LiveSocket {
  private ws: WebSocket | null = null;
  private closed = false;
  private pause = 250;
  private opened = false;
  private timer: number | undefined;

  /** Opens `path()` (asked again at each reconnect) on this origin. */
  constructor(
    private readonly path: () => string,
    private readonly on: SocketEvents,
  ) {
    this.connect();
  }

  private connect(): void {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${scheme}//${location.host}${this.path()}`);
    this.ws = ws;
    ws.onopen = () => {
      this.pause = 250;
      this.on.open(this.opened);
      this.opened = true;
    };
    ws.onmessage = (e) => {
      if (typeof e.data !== 'string') return;
      let f: unknown;
      try {
        f = JSON.parse(e.data);
      } catch {
        return;
      }
      if (typeof f === 'object' && f !== null && !Array.isArray(f)) this.on.frame(f as Record<string, unknown>);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      const wait = this.pause;
      this.pause = Math.min(8000, this.pause * 2);
      this.on.down(wait);
      this.timer = window.setTimeout(() => this.connect(), wait);
    };
  }

  /** Sends a frame; false when not connected (the caller keeps it to send after a resume). */
  send(frame: Record<string, unknown>): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  /** Drops the connection and opens it again at once (after joining a game, say). */
  reopen(): void {
    const old = this.ws;
    this.ws = null;
    old?.close();
    this.connect();
  }

  /** Closes for good. */
  close(): void {
    this.closed = true;
    window.clearTimeout(this.timer);
    this.ws?.close();
    this.ws = null;
  }
}
