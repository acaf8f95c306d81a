// Short beeps made in code (WebAudio): no audio files. Off when muted; the audio context is made
// on the first sound after a user gesture.

let ctx: AudioContext | null = null;
const MUTE_KEY = 'umpire.mute';

/** Whether sounds are off. */
export function muted(): boolean {
  try {
    return localStorage.getItem(MUTE_KEY) === '1';
  } catch {
    return false;
  }
}

/** Turns sounds off or on. */
export function setMuted(m: boolean): void {
  try {
    localStorage.setItem(MUTE_KEY, m ? '1' : '0');
  } catch {
    // Storage refused (private mode): the switch holds for this page only.
  }
}

/** The sounds the game makes. */
export type Cue = 'capture' | 'check' | 'illegal' | 'turn' | 'end';

const TONES: Record<Cue, [number, number][]> = {
  capture: [[220, 0.09], [165, 0.12]],
  check: [[880, 0.08], [660, 0.08], [880, 0.1]],
  illegal: [[140, 0.15]],
  turn: [[523, 0.07], [784, 0.09]],
  end: [[392, 0.12], [523, 0.12], [659, 0.2]],
};

/** Plays a cue (nothing when muted or before any user gesture). */
export function play(cue: Cue): void {
  if (muted() || !navigator.userActivation?.hasBeenActive) return;
  try {
    ctx ??= new AudioContext();
    let t = ctx.currentTime;
    for (const [freq, dur] of TONES[cue]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = freq;
      osc.type = 'sine';
      gain.gain.setValueAtTime(0.12, t);
      gain.gain.exponentialRampToValueAtTime(0.001, t + dur);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t);
      osc.stop(t + dur);
      t += dur;
    }
  } catch {
    // No audio on this device: the page works silently.
  }
}
