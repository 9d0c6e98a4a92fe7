package dev.strata.stacks.config;

import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Traversal;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The static checks of one stack's {@code removed} blocks: a target must really be gone, a
 * {@code for_each} must be used in {@code from}, targets inside an embedded stack that is itself
 * gone must remove that stack instead, and every block removing the same object must use the same
 * source.
 */
final class RemovedChecks {
    private final StackConfig stack;
    private final Diagnostics.Builder diags;

    RemovedChecks(StackConfig stack, Diagnostics.Builder diags) {
        this.stack = stack;
        this.diags = diags;
    }

    void run() {
        Set<String> wholeStacksRemoved = new HashSet<>();
        for (RemovedBlock r : stack.removed()) {
            if (r.from().targetsStack() && r.from().stacks().size() == 1) {
                wholeStacksRemoved.add(r.from().stacks().getFirst().name());
            }
        }
        Set<String> orphansReported = new HashSet<>();
        Map<String, RemovedBlock> firstByTarget = new LinkedHashMap<>();
        for (RemovedBlock r : stack.removed()) {
            RemovedTarget from = r.from();
            if (r.forEach() != null && !usesEach(from)) {
                diags.error(
                        "Invalid for_each expression",
                        "A removed block with a for_each expression must reference that expression within the "
                                + "`from` attribute.",
                        r.forEach().range());
            }
            if (from.stacks().isEmpty() && from.componentKey() == null) {
                ComponentConfig c = stack.components().get(from.component());
                if (c != null) {
                    diags.error(
                            "Component exists for removed block",
                            "A removed block for component \"" + from.component()
                                    + "\" was declared without an index, but a component block with the same name "
                                    + "was declared at " + c.declRange() + ".\n\nA removed block without an index "
                                    + "indicates that the component and all instances were removed from the "
                                    + "configuration, and this is not the case.",
                            r.declRange());
                }
            }
            if (from.targetsStack()
                    && from.stacks().size() == 1
                    && from.stacks().getFirst().key() == null) {
                EmbeddedStackConfig e =
                        stack.embeddedStacks().get(from.stacks().getFirst().name());
                if (e != null) {
                    diags.error(
                            "Embedded stack exists for removed block",
                            "A removed block for embedded stack \"" + e.name()
                                    + "\" was declared without an index, but a stack block with the same name was "
                                    + "declared at " + e.declRange() + ".\n\nA removed block without an index "
                                    + "indicates that the embedded stack and all instances were removed from the "
                                    + "configuration, and this is not the case.",
                            r.declRange());
                }
            }
            boolean deeper = from.stacks().size() > 1 || (!from.stacks().isEmpty() && !from.targetsStack());
            if (deeper) {
                String first = from.stacks().getFirst().name();
                if (!stack.embeddedStacks().containsKey(first)
                        && !wholeStacksRemoved.contains(first)
                        && orphansReported.add(first)) {
                    diags.error(
                            "Invalid removed block",
                            "The linked removed block was not executed because the `from` attribute of the removed "
                                    + "block targets a component or embedded stack within an orphaned embedded stack."
                                    + "\n\nIn order to remove an entire stack, update your removed block to target "
                                    + "the entire removed stack itself instead of the specific elements within it.",
                            r.declRange());
                }
            }
            if (r.source() == null) {
                continue;
            }
            String target = from.toString();
            RemovedBlock first = firstByTarget.putIfAbsent(target, r);
            if (first != null && first.source() != null && !sameSource(first.source(), r.source())) {
                diags.error(
                        "Invalid source address",
                        "Cannot use \"" + r.source() + "\" as a source address here: the target "
                                + (from.targetsStack() ? "stack" : "component") + " is already initialised with "
                                + "another source \"" + first.source() + "\".",
                        r.sourceRange());
            }
        }
    }

    private boolean sameSource(String a, String b) {
        if (StackLoader.isLocalSource(a) && StackLoader.isLocalSource(b)) {
            return stack.dir()
                    .resolve(a)
                    .normalize()
                    .equals(stack.dir().resolve(b).normalize());
        }
        return a.equals(b);
    }

    private static boolean usesEach(RemovedTarget from) {
        for (RemovedTarget.Step s : from.stacks()) {
            if (refersToEach(s.key())) {
                return true;
            }
        }
        return refersToEach(from.componentKey());
    }

    private static boolean refersToEach(Expression e) {
        if (e == null) {
            return false;
        }
        List<Traversal> vars = e.variables();
        return vars.stream().anyMatch(t -> "each".equals(t.rootName()));
    }
}
