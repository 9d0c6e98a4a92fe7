package dev.strata.tfplugin;

import java.util.ArrayDeque;
import java.util.List;

/** The last lines a plugin wrote to stderr, kept so a crash can be explained with them. */
final class StderrTail {
    private final int capacity;
    private final ArrayDeque<String> lines = new ArrayDeque<>();

    StderrTail(int capacity) {
        this.capacity = capacity;
    }

    synchronized void add(String line) {
        if (lines.size() == capacity) {
            lines.removeFirst();
        }
        lines.addLast(line);
    }

    synchronized List<String> lines() {
        return List.copyOf(lines);
    }
}
