// The class check (server/class_check.py), in the sidebar of every page. It asks the server
// for the class's version, saying which version it already knows (`?seen=`): the server holds
// the question until the class moves, or answers "nothing new" after a few seconds, and it
// asks again. Every question names this page's seat, which the server signed: it tells a
// member from a guess. Two questions start at least `every` ms apart.
//
// A following student's page: when the version is not the one this page last acted on
// (`seen`), or the class ended, or its store is down, it asks the page for one run, which
// opens the teacher's view. If that run has not shown `retry` ms later (it may have been
// lost), it asks again, then waits twice as long before each further ask, at most
// `retry_max` ms, every wait drawn within a fifth either side. Asking again stops the run
// on its way: under a busy server a whole class that asked again every `retry` ms together
// kept the server restarting its runs, and no page showed the move for minutes. The server
// counts the seat present (at most every 30 s).
// The teacher's page (`teaching`): its own moves change the version, so it asks for a run
// only when the store is down, which the run then says; its seat is not counted present.
// Outside a class (no `url`) it asks nothing: drawn all the same, it is loaded already when
// the visitor joins, and starts at once.

const memories = new WeakMap();

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function news(data, known) {
  if (known === undefined) return false;
  return data.teaching ? known === "down" : known !== data.seen;
}

// How far apart two asks for a run of the same version are: `retry` ms, doubled at each
// further ask up to `retry_max`, within a fifth either side so a class does not ask together.
function retryAfter(data, retries) {
  const wait = Math.min(data.retry * 2 ** retries, data.retry_max);
  return wait * (0.8 + 0.4 * Math.random());
}

function consider(memory) {
  const { data, known } = memory;
  if (!news(data, known)) return;
  const now = Date.now();
  if (memory.asked === known && now < memory.askAgain) return;
  memory.retries = memory.asked === known ? memory.retries + 1 : 0;
  memory.asked = known;
  memory.askAgain = now + retryAfter(data, memory.retries);
  memory.serial += 1;
  memory.setTriggerValue("moved", { version: known, serial: memory.serial });
}

async function ask(memory, generation) {
  while (memory.generation === generation) {
    const began = Date.now();
    const data = memory.data;
    const known = memory.known === undefined ? data.seen : memory.known;
    const query = new URLSearchParams();
    if (Number.isInteger(known)) query.set("seen", String(known));
    query.set("seat", data.seat);
    if (data.teaching) query.set("present", "0");
    try {
      const response = await fetch(`${data.url}?${query}`, {
        cache: "no-store",
        credentials: "same-origin",
      });
      const body = await response.json();
      // A check of a page since redrawn (another page opened: a new mount asks on its own)
      // stops here, or the class's next move would ask for two runs, one from each.
      if (memory.generation !== generation) return;
      memory.known = response.ok ? body.version : "down";
      consider(memory);
    } catch (error) {
      // No answer (a replica restarting, the network): ask again after the pause below.
    }
    await pause(Math.max(0, began + data.every - Date.now()));
  }
}

export default function ({ data, parentElement, setTriggerValue }) {
  let memory = memories.get(parentElement);
  if (!memory) {
    memory = { generation: 0, asked: null, askAgain: 0, retries: 0, serial: 0 };
    memories.set(parentElement, memory);
  }
  if (memory.data && (memory.data.url !== data.url || memory.data.seat !== data.seat)) {
    memory.known = undefined; // another class, or another seat: nothing of the last is known
  }
  memory.data = data;
  memory.setTriggerValue = setTriggerValue;
  if (!data.url) return () => {};
  if (!memory.retryTimer) {
    memory.generation += 1; // a loop of an earlier mount ends at its next answer
    memory.retryTimer = setInterval(() => consider(memory), data.every);
    ask(memory, memory.generation);
  }
  return () => {
    memory.generation += 1;
    clearInterval(memory.retryTimer);
    memory.retryTimer = 0;
  };
}
