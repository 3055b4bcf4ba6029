// Perft over Ludii's own engine, for docs/rules.md §3.3 and tests/data/hunt/start.perft.
//
// Usage: java -cp <ludii classes>:<trove jar>:. LudiiPerft <file.lud> <depth> [option ...]
//   prints `perft D N` for D = 1..depth.
//
// Counting follows huntsolve's perft (docs/rules.md §2.1): one turn is one move, so Ludii's
// per-hop moves that hand the turn back to the same player (`moveAgain`) are merged into one
// chain turn: a move after which the same player is to move again in an unfinished game is
// followed by that player's next move within the same ply. A finished game is one leaf at any
// depth. Every move is applied on a copy of the Context (Ludii's own copy constructor).

import collections.FastArrayList;
import game.Game;
import util.Context;
import util.GameLoader;
import util.Move;
import util.Trial;

import java.io.File;
import java.util.ArrayList;
import java.util.List;

public final class LudiiPerft {
    private LudiiPerft() {}

    /** Leaves `depth` turns below `context`. */
    static long perft(final Game game, final Context context, final int depth) {
        if (depth == 0 || context.trial().over()) {
            return 1;
        }
        return turn(game, context, depth, context.state().mover());
    }

    /** The moves of one turn of `mover`, hops that give the turn back included. */
    static long turn(final Game game, final Context context, final int depth, final int mover) {
        long sum = 0;
        final FastArrayList<Move> moves = game.moves(context).moves();
        for (int i = 0; i < moves.size(); i++) {
            final Move m = moves.get(i);
            final Context child = new Context(context);
            game.apply(child, m);
            if (!child.trial().over() && child.state().mover() == mover) {
                sum += turn(game, child, depth, mover);
            } else {
                sum += perft(game, child, depth - 1);
            }
        }
        return sum;
    }

    public static void main(final String[] args) {
        if (args.length < 2) {
            System.err.println("usage: LudiiPerft <file.lud> <depth> [option ...]");
            System.exit(2);
        }
        final List<String> options = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            options.add(args[i]);
        }
        final Game game = GameLoader.loadGameFromFile(new File(args[0]), options);
        final int depth = Integer.parseInt(args[1]);
        final String divide = System.getenv("LUDII_DIVIDE");
        if (divide != null) {
            // LUDII_DIVIDE="f-t f-t ...": play these moves (Ludii's from and to site
            // indices), then print each next move with the leaves `depth` turns below it.
            final Context context = new Context(game, new Trial(game));
            game.start(context);
            for (final String step : divide.trim().split("\\s+")) {
                if (step.isEmpty()) {
                    continue;
                }
                final FastArrayList<Move> moves = game.moves(context).moves();
                Move found = null;
                for (int i = 0; i < moves.size(); i++) {
                    final Move m = moves.get(i);
                    if ((m.fromNonDecision() + "-" + m.toNonDecision()).equals(step)) {
                        found = m;
                    }
                }
                if (found == null) {
                    System.err.println("no move " + step);
                    System.exit(2);
                }
                game.apply(context, found);
            }
            final int mover = context.state().mover();
            final FastArrayList<Move> moves = game.moves(context).moves();
            for (int i = 0; i < moves.size(); i++) {
                final Move m = moves.get(i);
                final Context child = new Context(context);
                game.apply(child, m);
                final long n = !child.trial().over() && child.state().mover() == mover
                        ? turn(game, child, depth, mover) : perft(game, child, depth - 1);
                System.out.println("divide " + m.fromNonDecision() + "-" + m.toNonDecision() + " " + n);
            }
            return;
        }
        for (int d = 1; d <= depth; d++) {
            final Trial trial = new Trial(game);
            final Context context = new Context(game, trial);
            game.start(context);
            System.out.println("perft " + d + " " + perft(game, context, d));
        }
    }
}
