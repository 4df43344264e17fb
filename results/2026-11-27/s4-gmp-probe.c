/* Probe: mpz_mul at 64 Kbit and 1 Mbit, mpz_powm at 8192 bits, best of 15 batches. */
#include <gmp.h>
#include <stdio.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
static double best_mul(mpz_t a, mpz_t b, int reps){mpz_t r;mpz_init(r);double best=1e9;
 for(int k=0;k<15;k++){double t0=now();for(int i=0;i<reps;i++)mpz_mul(r,a,b);double t=(now()-t0)/reps;if(t<best)best=t;}
 mpz_clear(r);return best;}
int main(void){gmp_randstate_t s;gmp_randinit_default(s);gmp_randseed_ui(s,7);
 mpz_t a,b,e,m,r;mpz_inits(a,b,e,m,r,NULL);
 mpz_urandomb(a,s,65536);mpz_urandomb(b,s,65536);double t64=best_mul(a,b,200);
 mpz_urandomb(a,s,1<<20);mpz_urandomb(b,s,1<<20);double t1m=best_mul(a,b,10);
 mpz_urandomb(a,s,8192);mpz_urandomb(e,s,8192);mpz_urandomb(m,s,8192);mpz_setbit(m,8191);mpz_setbit(m,0);
 double best=1e9;for(int k=0;k<5;k++){double t0=now();mpz_powm(r,a,e,m);double t=now()-t0;if(t<best)best=t;}
 printf("%s\tmul64k %.2f us\tmul1m %.3f ms\tpowm8192 %.2f ms\n",gmp_version,t64*1e6,t1m*1e3,best*1e3);return 0;}
