package dev.strata.stacks.runtime;

import dev.strata.engine.Engine;
import dev.strata.state.StateManager;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The first interrupt of a Stacks run, shared by every deployment of one runtime: component instances
 * not started yet are not started, and the engines planning or applying one are asked to start nothing
 * new (their running operations finish and are recorded). States opened meanwhile are reported to a
 * listener, so whoever must exit at once can release their locks.
 */
final class Interruption {
    private final AtomicBoolean requested = new AtomicBoolean();
    private final Set<Engine> running = ConcurrentHashMap.newKeySet();
    private volatile Consumer<StateManager> opened = s -> {};

    void stop() {
        requested.set(true);
        running.forEach(Engine::stop);
    }

    boolean requested() {
        return requested.get();
    }

    void onOpened(Consumer<StateManager> listener) {
        opened = listener;
    }

    StateManager opened(StateManager state) {
        if (state != null) {
            opened.accept(state);
        }
        return state;
    }

    /** Runs {@code work} on {@code engine}, which a stop reaches while it runs (and before, when one came already). */
    <T> T running(Engine engine, Supplier<T> work) {
        running.add(engine);
        try {
            if (requested.get()) {
                engine.stop();
            }
            return work.get();
        } finally {
            running.remove(engine);
        }
    }
}
