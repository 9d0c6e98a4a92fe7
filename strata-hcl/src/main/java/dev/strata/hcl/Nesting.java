package dev.strata.hcl;

import java.util.function.Supplier;

/**
 * How deep configuration may nest, and where deep recursion runs.
 *
 * <p>The parsers and the evaluator recurse once per nesting level. Terraform has no explicit limit
 * for expressions: its parser recurses on a goroutine stack of up to 1 GB and accepts about 60,000
 * nested {@code upper(} calls, crashing with a fatal stack overflow at 100,000. Strata accepts
 * {@link #MAX_DEPTH} levels, so everything Terraform accepts, and reports a diagnostic beyond it.
 *
 * <p>Threads start with small stacks (1 MB by default, virtual threads included), enough for a few
 * hundred levels. Rather than require every caller to run on a large stack, a recursion that reaches
 * {@link #HANDOFF_DEPTH} levels on an ordinary thread continues on a fresh platform thread whose stack
 * holds {@link #MAX_DEPTH} levels ({@link #DEEP_STACK_BYTES}, measured at about 3.5 KB per level for
 * parsing or evaluating nested calls with the interpreter, the worst case). The caller waits for it.
 * Realistic configurations nest far less than the hand-off depth and never pay for the thread.
 */
public final class Nesting {
    private Nesting() {}

    /** Levels of brackets, calls, operators, templates and blocks accepted; deeper is an error. */
    public static final int MAX_DEPTH = 100_000;

    /** Depth at which a recursion on an ordinary thread moves to a deep-stack thread. */
    public static final int HANDOFF_DEPTH = 64;

    /** Stack reserved for a deep-stack thread; only the pages actually used are committed. */
    public static final long DEEP_STACK_BYTES = 1L << 30;

    /** Whether the current thread is a deep-stack thread started by {@link #onDeepStack}. */
    public static boolean onDeepStack() {
        return Thread.currentThread() instanceof DeepThread;
    }

    /**
     * Runs {@code work} on a deep-stack thread (inline when already on one) and returns its result.
     * A RuntimeException or Error thrown by {@code work} is rethrown in the caller.
     */
    public static <T> T onDeepStack(Supplier<T> work) {
        if (onDeepStack()) {
            return work.get();
        }
        DeepThread t = new DeepThread(work);
        t.start();
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                // The work is pure computation; finish it and pass the interrupt on afterwards.
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (t.failure instanceof RuntimeException re) {
            throw re;
        }
        if (t.failure instanceof Error err) {
            throw err;
        }
        @SuppressWarnings("unchecked")
        T result = (T) t.result;
        return result;
    }

    /** The diagnostic for input nested deeper than {@link #MAX_DEPTH} levels. */
    public static Diagnostic tooDeep(String what, SourceRange subject) {
        return Diagnostic.error(
                what + " nested too deeply",
                "This " + what.toLowerCase(java.util.Locale.ROOT) + " is nested more than " + MAX_DEPTH
                        + " levels deep (brackets, function calls, operators, templates and blocks each add a "
                        + "level). Split it into smaller parts, for example with local values.",
                subject);
    }

    private static final class DeepThread extends Thread {
        private final Supplier<?> work;
        private Object result;
        private Throwable failure;

        DeepThread(Supplier<?> work) {
            super(null, null, "strata-deep-stack", DEEP_STACK_BYTES, true);
            this.work = work;
            setDaemon(true);
        }

        @Override
        public void run() {
            try {
                result = work.get();
            } catch (Throwable t) {
                failure = t;
            }
        }
    }
}
