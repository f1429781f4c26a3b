// The gdsl grammar (docs/reference.md sections 2-5). The C++ parser is generated from
// this file at build time by Debian's antlr4 tool (the token rules at the end
// are also written by hand, in compiler/parse/Lexer.cpp); compiler/parse converts the
// parse tree into gdsl's own AST, so nothing else sees ANTLR types.
grammar Gdsl;

// `show` and `loopy` are contextual keywords: the lexer makes them IDs, and
// compiler/parse retypes `show` to SHOW where it begins a game item, and
// `loopy` to LOOPY where it begins a statement before `game`, so both stay
// valid names.
tokens { SHOW, LOOPY, PLOT, HEX }

program : statement* EOF ;

statement
    : gameDecl                                        # gameStmt
    | 'const' ID '=' expr                             # constStmt
    | 'import' (STRING | dottedName)                  # importStmt
    | 'eval' MISERE='misere'? position                # evalStmt
    | 'moves' position                                # movesStmt
    | 'table' ID '(' args ')'                         # tableStmt
    | 'table' '[' position compFor compClause* ']'    # tableOfStmt
    | PLOT ID '(' args ')'                            # plotStmt
    | 'period' ID ('(' args ')')?                     # periodStmt
    | 'assert' position '==' (nimber | position | INF=ID)  # assertStmt
    ;

dottedName : ID ('.' moduleWord)* ;
// Module names may be keywords (std.octal).
moduleWord : ID | 'game' | 'move' | 'when' | 'let' | 'normalize' | 'take' | 'split' | 'unequal'
           | 'remove' | 'with' | 'neighbours' | 'octal' | 'import' | 'const' | 'eval' | 'table'
           | 'period' | 'moves' | 'assert' | 'misere' | 'in' | 'and' | 'or' | 'not' | 'sum' | 'for' ;

gameDecl
    : LOOPY? 'game' ID '(' params? ')' '{' gameItem* '}'  # ruleGame
    | 'game' ID '=' ('octal' | HEX) STRING            # octalGame
    ;

// A move's label may be a keyword too (`move take(k in 1..3)`, as
// `gdsl check --dump=desugared` prints the moves that `take` stands for), but
// not `when`, which would begin the move's condition.
moveLabel : ID | 'game' | 'move' | 'let' | 'normalize' | 'take' | 'split' | 'unequal' | 'remove'
          | 'with' | 'neighbours' | 'octal' | 'import' | 'const' | 'eval' | 'table' | 'period'
          | 'moves' | 'assert' | 'misere' | 'in' | 'and' | 'or' | 'not' | 'sum' | 'for' ;

params : param (',' param)* ;
param  : ID (':' ID)? ;

gameItem
    : 'normalize' '->' successor                                       # normalizeItem
    | 'move' moveLabel? ('(' (clause (',' clause)*)? ')')? ('when' expr)? '->' successor  # moveItem
    | 'take' expr                                                      # takeItem
    | 'split' UNEQUAL='unequal'?                                       # splitItem
    | 'remove' expr (NEIGHBOURS='with' 'neighbours')?                  # removeItem
    | SHOW showPart (',' showPart)*                                    # showItem
    ;

// How a position is printed: drawings board(...), row(...) (whose last
// argument may be a string of symbols) or values, between the parentheses.
showPart
    : ID '(' showArg (',' showArg)* ')'               # drawPart
    | expr                                            # valuePart
    ;
showArg : expr | STRING ;

clause
    : ID 'in' expr ('when' expr)?                     # binderClause
    | 'let' ID '=' expr ('when' expr)?                # letClause
    | 'when' expr                                     # whenClause
    ;

// A successor or a position: a sum of terms. A `sum ... for x in D` term takes
// everything after `in` as its domain, so it can only be the last term (or be
// parenthesized); this also keeps `+` out of what may follow an expression.
successor : sumTerm | term ('+' term)* ('+' sumTerm)? ;
position  : successor ;

term
    : ID '(' args? ')'                                # gameTerm
    | INT                                             # zeroTerm
    | '(' successor ')'                               # parenTerm
    ;

sumTerm : 'sum' sumBody 'for' ID 'in' expr ;

sumBody
    : ID '(' args? ')'                                # sumGame
    | '(' successor ')'                               # sumParen
    ;

args : expr (',' expr)* ;

nimber : STAR='*'? INT ;

// Expressions, loosest first (docs/reference.md section 3.2).
expr       : andExpr ('or' andExpr)* ;
andExpr    : notExpr ('and' notExpr)* ;
notExpr    : NOT='not' notExpr | comparison ;
comparison : rangeExpr (cmpOp rangeExpr)? ;
cmpOp      : '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' ;

rangeExpr : bitOr ('..' bitOr)? ;

bitOr  : bitXor ('|' bitXor)* ;
bitXor : bitAnd ('^' bitAnd)* ;
bitAnd : shift ('&' shift)* ;
shift  : additive (shiftOp additive)* ;
shiftOp : '<<' | '>>' ;
additive : multiplicative (addOp multiplicative)* ;
addOp : '+' | '-' ;
multiplicative : unary (mulOp unary)* ;
mulOp : '*' | '/' | '%' ;

// `~` is bitwise not (every bit flipped: ~x == -x - 1), at the level of unary minus.
// `**` (power) binds tighter than unary minus on its left and takes a
// unary on its right, so it is right-associative: -2 ** 2 is -4, 2 ** 3 ** 2 is 512.
unary
    : '-' unary                                       # negExpr
    | '~' unary                                       # bitNotExpr
    | postfix ('**' unary)?                           # postfixExpr
    ;

postfix : primary ('[' expr ']')* ;

// A call and a fold, and a list and a list comprehension, share their start:
// which one it is shows after the first element (`for` or not), so the parser
// decides with one token there instead of scanning ahead over the element.
primary
    : INT                                             # intLit
    | (ID | SUM='sum') '(' items? ')'                 # callExpr
    | ID                                              # nameExpr
    | '[' items? ']'                                  # listExpr
    | '{' args? '}'                                   # setLit
    | '(' expr ')'                                    # parenExpr
    ;

// Arguments or list elements, or one element and the loops of a comprehension.
items : expr (compFor compClause* | (',' expr)*) ;

// Comprehensions and folds: `[k * k for k in 1..n if k % 2 == 1]`,
// `any(c[i] == 1 for i in 0..n-1)`. A filter is `if` (a word, not a keyword,
// so programs that use `if` as a name still parse; the parser checks the
// spelling) or `when`.
compFor    : 'for' ID 'in' expr ;
compClause : compFor | ('when' | IF=ID) expr ;

// The token rules. gdsl lexes with compiler/parse/Lexer.cpp, which implements
// these rules by hand; tests/unit/lexer_test.cpp holds it equal to the lexer
// antlr4 generates from them, so change both together.
ID     : [A-Za-z_] [A-Za-z0-9_]* ;
// Decimal, hexadecimal (0x) or binary (0b), with `_` between digits
// (1_000_000, 0xFF_FF); the parser checks the separators and the range.
INT    : [0-9] [0-9_]* | '0' [xX] [0-9a-fA-F_]+ | '0' [bB] [01_]+ ;
STRING : '"' ( '\\"' | '\\\\' | ~["\\\r\n] )* '"' ;
// Unterminated strings and comments get tokens of their own, for clear errors.
UNTERMINATED_STRING : '"' ( '\\"' | '\\\\' | ~["\\\r\n] )* ;

LINE_COMMENT  : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;
UNTERMINATED_COMMENT : '/*' ( ~'*' | '*'+ ~[*/] )* '*'* EOF ;
WS            : [ \t\r\n]+ -> skip ;
ERROR_CHAR    : . ;
