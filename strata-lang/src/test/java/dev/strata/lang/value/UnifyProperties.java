package dev.strata.lang.value;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.types.Type;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class UnifyProperties {
    static Arbitrary<Type> types(int depth) {
        Arbitrary<Type> prim = Arbitraries.of(Type.STRING, Type.NUMBER, Type.BOOL, Type.DYNAMIC);
        if (depth == 0) {
            return prim;
        }
        Arbitrary<Type> inner = types(depth - 1);
        return Arbitraries.oneOf(
                prim,
                inner.map(Type::list),
                inner.map(Type::set),
                inner.map(Type::map),
                inner.list().ofMaxSize(3).map(Type::tuple),
                Arbitraries.maps(Arbitraries.of("a", "b", "c"), inner)
                        .ofMaxSize(3)
                        .map(Type::object));
    }

    @Provide
    Arbitrary<List<Type>> typeLists() {
        return types(2).list().ofMinSize(1).ofMaxSize(4);
    }

    @Property
    void unifyDoesNotDependOnOrder(@ForAll("typeLists") List<Type> ts) {
        List<Type> shuffled = new ArrayList<>(ts);
        Collections.shuffle(shuffled);
        assertThat(Unify.unify(shuffled)).isEqualTo(Unify.unify(ts));
    }

    @Property
    void everyInputTypeConvertsToTheUnifiedType(@ForAll("typeLists") List<Type> ts) {
        Optional<Type> u = Unify.unify(ts);
        u.ifPresent(t -> ts.forEach(
                x -> assertThat(Convert.canConvert(x, t)).as(x + " -> " + t).isTrue()));
    }

    @Property
    void unifyingATypeWithItselfGivesTheType(@ForAll("typeLists") List<Type> ts) {
        Type t = ts.get(0);
        assertThat(Unify.unify(List.of(t, t))).contains(t);
        assertThat(Unify.unify(List.of(t, Type.DYNAMIC))).contains(t);
    }
}
