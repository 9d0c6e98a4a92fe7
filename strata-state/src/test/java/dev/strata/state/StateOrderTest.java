package dev.strata.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strata.addr.GoOrder;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.ModuleInstance;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class StateOrderTest {
    private static final String[] NAMES = {"a", "ab", "a_b", "b", "net", "net2", "z"};
    private static final String[] KEYS = {
        "", "x", "x\"y", "a.b", "é", "😀", "[", "10", "9", "1", "k00012", "k0001", "k00012!", "a$b", "x y"
    };

    /** The step-wise comparison must agree with comparing the rendered texts, which is what Terraform sorts by. */
    @Test
    void modulePathsCompareAsTheirTexts() {
        Random random = new Random(42);
        List<ModuleInstance> paths = new ArrayList<>();
        paths.add(ModuleInstance.ROOT);
        for (int i = 0; i < 400; i++) {
            ModuleInstance m = ModuleInstance.ROOT;
            int depth = 1 + random.nextInt(3);
            for (int d = 0; d < depth; d++) {
                String name = NAMES[random.nextInt(NAMES.length)];
                InstanceKey key = switch (random.nextInt(3)) {
                    case 0 -> InstanceKey.NONE;
                    case 1 -> InstanceKey.of(random.nextInt(12));
                    default -> InstanceKey.of(KEYS[random.nextInt(KEYS.length)]);
                };
                m = m.child(name, key);
            }
            paths.add(m);
        }
        for (ModuleInstance a : paths) {
            for (ModuleInstance b : paths) {
                assertEquals(
                        Integer.signum(GoOrder.compare(a.toString(), b.toString())),
                        Integer.signum(StateOrder.compare(a, b)),
                        a + " vs " + b);
            }
        }
    }
}
