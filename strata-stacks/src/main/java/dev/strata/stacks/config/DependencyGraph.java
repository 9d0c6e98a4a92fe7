package dev.strata.stacks.config;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * References between configuration objects (X depends on Y), named as Terraform names them in its
 * cycle messages ({@code component.a}, {@code stack.a inputs}, {@code stack.a.output.b}), to find
 * the cycles a static walk can see.
 */
final class DependencyGraph {
    private final Map<String, SortedSet<String>> edges = new TreeMap<>();

    void node(String n) {
        edges.computeIfAbsent(n, k -> new TreeSet<>());
    }

    void edge(String from, String to) {
        node(to);
        edges.computeIfAbsent(from, k -> new TreeSet<>()).add(to);
    }

    /**
     * Each cycle once, as the chain of items from its smallest name following references; in order of
     * that first name.
     */
    List<List<String>> cycles() {
        List<List<String>> out = new ArrayList<>();
        for (SortedSet<String> scc : components()) {
            String start = scc.first();
            boolean selfLoop = edges.get(start).contains(start);
            if (scc.size() == 1 && !selfLoop) {
                continue;
            }
            List<String> chain = new ArrayList<>();
            String at = start;
            while (at != null && !chain.contains(at)) {
                chain.add(at);
                String next = null;
                for (String n : edges.get(at)) {
                    if (scc.contains(n) && (!chain.contains(n) || n.equals(start))) {
                        next = n;
                        break;
                    }
                }
                at = next;
            }
            out.add(chain);
        }
        out.sort((a, b) -> a.getFirst().compareTo(b.getFirst()));
        return out;
    }

    /** Strongly connected components (Tarjan's algorithm, iterative to survive deep graphs). */
    private List<SortedSet<String>> components() {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        java.util.Set<String> onStack = new java.util.HashSet<>();
        List<SortedSet<String>> result = new ArrayList<>();
        int[] counter = {0};
        for (String v : edges.keySet()) {
            if (index.containsKey(v)) {
                continue;
            }
            Deque<Object[]> work = new ArrayDeque<>();
            work.push(new Object[] {v, new ArrayList<>(edges.get(v)).iterator()});
            index.put(v, counter[0]);
            low.put(v, counter[0]++);
            stack.push(v);
            onStack.add(v);
            while (!work.isEmpty()) {
                Object[] frame = work.peek();
                String node = (String) frame[0];
                @SuppressWarnings("unchecked")
                java.util.Iterator<String> it = (java.util.Iterator<String>) frame[1];
                if (it.hasNext()) {
                    String w = it.next();
                    if (!index.containsKey(w)) {
                        index.put(w, counter[0]);
                        low.put(w, counter[0]++);
                        stack.push(w);
                        onStack.add(w);
                        work.push(new Object[] {w, new ArrayList<>(edges.get(w)).iterator()});
                    } else if (onStack.contains(w)) {
                        low.put(node, Math.min(low.get(node), index.get(w)));
                    }
                } else {
                    work.pop();
                    if (!work.isEmpty()) {
                        String parent = (String) work.peek()[0];
                        low.put(parent, Math.min(low.get(parent), low.get(node)));
                    }
                    if (low.get(node).equals(index.get(node))) {
                        SortedSet<String> scc = new TreeSet<>();
                        String w;
                        do {
                            w = stack.pop();
                            onStack.remove(w);
                            scc.add(w);
                        } while (!w.equals(node));
                        result.add(scc);
                    }
                }
            }
        }
        return result;
    }
}
