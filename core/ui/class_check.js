// A following student's check (core/app/class_check.py): every `every` ms, ask the server for
// the class's version. While it is the one this page last acted on (`seen`), nothing happens.
// When it moved (or the class ended, or its store is down), ask the page for one run, which
// opens the teacher's view; if that run got lost, ask again after `retry` ms. Every `checkIn`
// ms the check also says this seat is still here.

const memories = new WeakMap();

async function tick(memory) {
  if (memory.busy) return;
  const data = memory.data;
  const now = Date.now();
  const checkIn = now - memory.checkedIn > data.checkIn;
  const url = checkIn ? `${data.url}?seat=${encodeURIComponent(data.seat)}` : data.url;
  memory.busy = true;
  try {
    const response = await fetch(url, { cache: "no-store", credentials: "same-origin" });
    const body = await response.json();
    if (checkIn && response.ok) memory.checkedIn = now;
    const version = response.ok ? body.version : "down";
    if (version === data.seen) return;
    if (memory.asked === version && now - memory.askedAt < data.retry) return;
    memory.asked = version;
    memory.askedAt = now;
    memory.serial += 1;
    memory.setTriggerValue("moved", { version, serial: memory.serial });
  } catch (error) {
    // No answer (a replica restarting, the network): the next tick asks again.
  } finally {
    memory.busy = false;
  }
}

export default function ({ data, parentElement, setTriggerValue }) {
  let memory = memories.get(parentElement);
  if (!memory) {
    memory = { timer: 0, busy: false, asked: null, askedAt: 0, checkedIn: Date.now(), serial: 0 };
    memories.set(parentElement, memory);
  }
  memory.data = data;
  memory.setTriggerValue = setTriggerValue;
  if (!memory.timer) memory.timer = setInterval(() => tick(memory), data.every);
  return () => {
    clearInterval(memory.timer);
    memory.timer = 0;
  };
}
